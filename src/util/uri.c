/*
 * uri.c -- object-store URIs (uri.h).
 */
#include "util/uri.h"

#include <string.h>

size_t hl_uri_object_root(const char *path) {
  size_t n;
  if (strncmp(path, "s3://", 5) == 0)
    n = 5;
  else if (strncmp(path, "s3a://", 6) == 0 || strncmp(path, "s3n://", 6) == 0)
    n = 6;
  else
    return 0;
  size_t b = strcspn(path + n, "/");
  return b == 0 ? 0 : n + b; /* no bucket: not a usable URI */
}
