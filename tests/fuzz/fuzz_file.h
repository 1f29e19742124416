/*
 * fuzz_file.h -- shared body of the file-reader fuzz targets
 * (fuzz_parquet.c, fuzz_orc.c): the input is written to a temporary file
 * PREFIX + random suffix, READ runs over it twice (VARIANT false, then
 * true) through a local hl_stor_t, and the file is removed.
 */
#ifndef HL_FUZZ_FILE_H
#define HL_FUZZ_FILE_H

#include "storage/stor.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void fuzz_with_file(const uint8_t *data, size_t size, const char *prefix,
                                  void (*read)(hl_stor_t *fs, const char *path, bool variant)) {
  char path[256];
  snprintf(path, sizeof path, "/tmp/%sXXXXXX", prefix);
  int fd = mkstemp(path);
  if (fd < 0) return;
  if (size && write(fd, data, size) != (ssize_t)size) {
    close(fd);
    unlink(path);
    return;
  }
  close(fd);
  hl_stor_t *fs = hl_stor_local_create();
  if (fs) {
    read(fs, path, false);
    read(fs, path, true);
    fs->ops->destroy(fs);
  }
  unlink(path);
}

#endif
