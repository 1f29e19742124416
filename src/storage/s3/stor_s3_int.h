/*
 * stor_s3_int.h -- what the two files of the S3 backend share: its state,
 * an open file, and the helpers each uses of the other.  stor_s3.c holds
 * paths, clients, stat, listings, reads and removes; stor_s3_write.c the
 * writes (pending multipart uploads, background part uploads, publish).
 */
#ifndef HL_STOR_S3_INT_H
#define HL_STOR_S3_INT_H

#include "storage/s3/stor_s3.h"
#include "util/hashmap.h"

#include <pthread.h>
#include <stdbool.h>

/* How long a listed (or HEADed) file's size and ETag stand for it.  A
 * scan lists its partitions first and opens their files later, minutes
 * later on a big table; what is wrong after a change by another writer
 * is caught by the ETag check of every read (an error, never mixed
 * bytes), and forgotten then. */
#define META_TTL_NS     (15LL * 60 * 1000000000LL)
#define META_MAX        (1u << 20) /* files remembered (the table grows to it) */
#define READ_AHEAD      (1u << 20)
#define MERGE_GAP       (1u << 20)
#define MERGE_MAX       (16u << 20)
#define DEFAULT_PART    (8u << 20)
#define MIN_PART        (5u << 20)
#define UPLOAD_THREADS  8           /* background part uploads of pending objects */
#define UPLOAD_QUEUED   (64u << 20) /* bytes of parts waiting for an upload thread */
#define PUBLISH_THREADS 16          /* CompleteMultipartUpload calls at once */

typedef struct s3_client_slot {
  char *bucket;
  char *fingerprint; /* the config it was made from */
  hl_s3_client_t *client;
  struct s3_client_slot *next;
} client_slot_t;

typedef struct meta {
  uint64_t size;
  char etag[72]; /* S3's are 34 ("md5") or up to 40 ("md5-N") with quotes */
  int64_t mtime_ns;
  int64_t seen_ns; /* when it was listed */
} meta_t;

typedef struct pending {
  char *path; /* heap */
  char *bucket, *key;
  hl_s3_client_t *client;
  char *upload_id; /* NULL: nothing uploaded yet (an empty object) */
  char **etags;    /* of parts 1..n_parts */
  size_t n_parts, cap_parts;
  uint64_t size; /* bytes handed to the upload so far */
  bool closed, published;
  int outstanding; /* parts queued or being uploaded (fs->mu) */
  bool failed;     /* a part failed: PERR says why (fs->mu) */
  hl_error_t perr;
  hl_arena_t *arena; /* upload id, etags */
  struct pending *next, *prev;
} pending_t;

/* A part of a pending object waiting for an upload thread. */
typedef struct job {
  struct pending *p;
  int part;
  bool create; /* the object's first part: start the multipart upload first */
  char *buf;   /* heap, the job's */
  size_t len;
  struct job *next;
} job_t;

typedef struct s3_fs {
  hl_stor_t base;
  hl_s3_config_fn config;
  void *config_arg;
  size_t part_size;
  pthread_mutex_t mu;
  client_slot_t *clients;
  hl_map_t *meta_index; /* path -> index into metas */
  meta_t *metas;
  size_t n_metas, cap_metas;
  pending_t *pendings;     /* every pending object not yet published or aborted */
  hl_map_t *pending_index; /* path -> pending_t * (0: gone); NULL while none */
  /* the upload threads (started on the first part): a writer hands a
   * part over and goes on writing; publish waits for its object's parts */
  pthread_t uploaders[UPLOAD_THREADS];
  int n_uploaders;
  job_t *jobs, *jobs_tail;
  size_t queued;   /* bytes in jobs */
  int outstanding; /* parts queued or being uploaded, of every object */
  pthread_cond_t work, progress;
  bool stopping;
} s3_fs_t;

/* A range held in memory for an open file. */
typedef struct span {
  uint64_t off;
  size_t len;
  char *data;
} span_t;

typedef struct s3_file {
  hl_stor_file_t base;
  s3_fs_t *fs;
  hl_s3_client_t *client;
  char *path, *bucket, *key; /* heap */
  bool writing;
  /* reading */
  uint64_t size;
  char etag[128];
  span_t *spans; /* prefetched ranges and the read-ahead window (last) */
  size_t n_spans;
  span_t window;
  /* writing */
  pending_t *pending; /* create_pending: the record publish finds */
  char *buf;
  size_t buf_len, buf_cap;
  char *upload_id; /* create: a multipart upload once the first part went */
  char **etags;
  size_t n_parts, cap_parts;
  hl_arena_t *arena;
  bool failed;
} s3_file_t;

/* ---- stor_s3.c */
int64_t hl_s3fs_now_ns(void);
/* PATH as bucket and key, and with the client of its settings. */
hl_status_t hl_s3fs_resolve(s3_fs_t *fs, const char *path, hl_arena_t *arena, char **bucket,
                            char **key, hl_s3_client_t **client, hl_error_t *err);
/* hl_s3fs_resolve, and the prefix of the directory's entries ("key/"). */
hl_status_t hl_s3fs_resolve_dir(s3_fs_t *fs, const char *path, hl_arena_t *arena, char **bucket,
                                char **key, char **prefix, hl_s3_client_t **client,
                                hl_error_t *err);
/* Forgets what a listing said of PATH (written or removed here). */
void hl_s3fs_meta_forget(s3_fs_t *fs, const char *path);
s3_file_t *hl_s3fs_file_new(s3_fs_t *fs, const char *path, const char *bucket, const char *key,
                            hl_s3_client_t *c);
void hl_s3fs_file_free(s3_file_t *f);

/* ---- stor_s3_write.c: the ops of writing, and what destroy and stat need */
hl_status_t hl_s3fs_create(hl_stor_t *base, const char *path, hl_stor_file_t **out,
                           hl_error_t *err);
hl_status_t hl_s3fs_create_pending(hl_stor_t *base, const char *path, hl_stor_file_t **out,
                                   hl_error_t *err);
hl_status_t hl_s3fs_append(hl_stor_file_t *base, const void *data, size_t len, hl_error_t *err);
hl_status_t hl_s3fs_sync(hl_stor_file_t *f, hl_error_t *err);
hl_status_t hl_s3fs_close(hl_stor_file_t *base, hl_error_t *err);
hl_status_t hl_s3fs_publish_pending(hl_stor_t *base, const char *path, hl_error_t *err);
hl_status_t hl_s3fs_publish_pending_many(hl_stor_t *base, char *const *paths, size_t n,
                                         hl_error_t *err);
void hl_s3fs_abort_pending(hl_stor_t *base, const char *path);
hl_status_t hl_s3fs_abort_pending_under(hl_stor_t *base, const char *dir, const char *name_prefix,
                                        hl_error_t *err);
/* A closed pending object of this process: exists, with its size. */
bool hl_s3fs_pending_stat(s3_fs_t *fs, const char *path, hl_stor_stat_t *st);
/* sync_fs: waits until every part queued for upload is uploaded. */
hl_status_t hl_s3fs_sync_fs(hl_stor_t *base, const char *path, hl_error_t *err);
/* Destroy's part: aborts every upload never published, stops the upload
 * threads. */
void hl_s3fs_writes_end(s3_fs_t *fs);

#endif
