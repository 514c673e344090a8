// libheif (HEIC, HEIF and, through its AV1 decoders, AVIF), loaded on first use: `dlopen("libheif.so.1")` instead of
// linking it, so that a process that never meets such a file never pays for mapping libheif and the codecs it links
// (libde265, libx265, libaom, libdav1d, libstdc++): about 10 ms of CPU time at every start (docs/benchmarks.md).
// The declarations come from the system's <libheif/heif.h>; the functions are reached through one table of pointers,
// resolved once.
#ifndef THUMBTABLE_CHEIF_H
#define THUMBTABLE_CHEIF_H

#include <libheif/heif.h>

/// The libheif functions ThumbTable calls, every one resolved (never NULL) once `cheif_load` has returned it.
struct cheif_library {
    const char *_Nonnull (*_Nonnull get_version)(void);
    struct heif_context *_Nullable (*_Nonnull context_alloc)(void);
    void (*_Nonnull context_free)(struct heif_context *_Nullable);
    struct heif_error (*_Nonnull context_read_from_memory_without_copy)(struct heif_context *_Nonnull,
                                                                        const void *_Nonnull, size_t,
                                                                        const struct heif_reading_options *_Nullable);
    void (*_Nonnull context_set_maximum_image_size_limit)(struct heif_context *_Nonnull, int);
    void (*_Nonnull context_set_max_decoding_threads)(struct heif_context *_Nonnull, int);
    struct heif_error (*_Nonnull context_get_primary_image_handle)(struct heif_context *_Nonnull,
                                                                   struct heif_image_handle *_Nullable *_Nonnull);
    void (*_Nonnull image_handle_release)(const struct heif_image_handle *_Nullable);
    int (*_Nonnull image_handle_get_width)(const struct heif_image_handle *_Nonnull);
    int (*_Nonnull image_handle_get_height)(const struct heif_image_handle *_Nonnull);
    int (*_Nonnull image_handle_get_luma_bits_per_pixel)(const struct heif_image_handle *_Nonnull);
    int (*_Nonnull image_handle_get_number_of_thumbnails)(const struct heif_image_handle *_Nonnull);
    int (*_Nonnull image_handle_get_list_of_thumbnail_IDs)(const struct heif_image_handle *_Nonnull,
                                                           heif_item_id *_Nonnull, int);
    struct heif_error (*_Nonnull image_handle_get_thumbnail)(const struct heif_image_handle *_Nonnull, heif_item_id,
                                                             struct heif_image_handle *_Nullable *_Nonnull);
    struct heif_decoding_options *_Nullable (*_Nonnull decoding_options_alloc)(void);
    void (*_Nonnull decoding_options_free)(struct heif_decoding_options *_Nullable);
    struct heif_error (*_Nonnull decode_image)(const struct heif_image_handle *_Nonnull,
                                               struct heif_image *_Nullable *_Nonnull, enum heif_colorspace,
                                               enum heif_chroma, const struct heif_decoding_options *_Nullable);
    int (*_Nonnull image_get_width)(const struct heif_image *_Nonnull, enum heif_channel);
    int (*_Nonnull image_get_height)(const struct heif_image *_Nonnull, enum heif_channel);
    const uint8_t *_Nullable (*_Nonnull image_get_plane_readonly)(const struct heif_image *_Nonnull,
                                                                  enum heif_channel, int *_Nonnull);
    void (*_Nonnull image_release)(const struct heif_image *_Nullable);
};

/// Loads libheif and calls `heif_init`, once per process. Returns the function table, or NULL with `*message` saying
/// why not (the library is missing or lacks a function), the same message on every call.
const struct cheif_library *_Nullable cheif_load(const char *_Nullable *_Nonnull message);

#endif
