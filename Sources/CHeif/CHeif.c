#include "CHeif.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct cheif_library heif;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libheif was not loaded";
static char load_message[256];

static void load(void) {
    // libheif.so.1 is the soname of every libheif since 1.0 (Debian's package is libheif1).
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_message, sizeof load_message,
                 "HEIC, HEIF and AVIF images need libheif, which is not installed (Debian: apt-get install libheif1)");
        load_error = load_message;
        return;
    }
#define RESOLVE(field)                                                                                          \
    do {                                                                                                        \
        *(void **)(&heif.field) = dlsym(library, "heif_" #field);                                               \
        if (*(void **)(&heif.field) == NULL) {                                                                  \
            snprintf(load_message, sizeof load_message, "the installed libheif is too old (1.15 or later is "   \
                     "needed): it lacks heif_%s", #field);                                                      \
            load_error = load_message;                                                                          \
            return;                                                                                             \
        }                                                                                                       \
    } while (0)
    RESOLVE(get_version);
    RESOLVE(context_alloc);
    RESOLVE(context_free);
    RESOLVE(context_read_from_memory_without_copy);
    RESOLVE(context_set_maximum_image_size_limit);
    RESOLVE(context_set_max_decoding_threads);
    RESOLVE(context_get_primary_image_handle);
    RESOLVE(image_handle_release);
    RESOLVE(image_handle_get_width);
    RESOLVE(image_handle_get_height);
    RESOLVE(image_handle_get_luma_bits_per_pixel);
    RESOLVE(image_handle_get_number_of_thumbnails);
    RESOLVE(image_handle_get_list_of_thumbnail_IDs);
    RESOLVE(image_handle_get_thumbnail);
    RESOLVE(decoding_options_alloc);
    RESOLVE(decoding_options_free);
    RESOLVE(decode_image);
    RESOLVE(image_get_width);
    RESOLVE(image_get_height);
    RESOLVE(image_get_plane_readonly);
    RESOLVE(image_release);
#undef RESOLVE
    // heif_init (1.13) loads the decoder plugins of builds that have them; without it such a build decodes nothing.
    struct heif_error (*init)(struct heif_init_params *) = NULL;
    *(void **)(&init) = dlsym(library, "heif_init");
    if (init != NULL) {
        struct heif_error error = init(NULL);
        if (error.code != heif_error_Ok) {
            snprintf(load_message, sizeof load_message, "libheif failed to start: %s", error.message);
            load_error = load_message;
            return;
        }
    }
    load_error = NULL;
}

const struct cheif_library *cheif_load(const char **message) {
    pthread_once(&load_once, load);
    *message = load_error;
    return load_error == NULL ? &heif : NULL;
}
