#include "CAvif.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The soname that goes with the headers this is compiled against: ThumbTable reads libavif's structs (avifDecoder,
// avifImage) in place, whose layout changes with the soname, so another soname must not be loaded in its stead.
#if AVIF_VERSION_MAJOR == 0 && (AVIF_VERSION_MINOR == 11)
#define CAVIF_SONAME "libavif.so.15"
#elif AVIF_VERSION_MAJOR == 1  // 1.x keeps the soname, adding fields only at the ends of structs
#define CAVIF_SONAME "libavif.so.16"
#else
#error "unknown libavif version: add its soname here"
#endif

static struct cavif_library avif;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libavif was not loaded";
static char load_message[256];

static void load(void) {
    void *library = dlopen(CAVIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_message, sizeof load_message,
                 "animated AVIF images need libavif (" CAVIF_SONAME "), which is not installed (Debian: apt-get "
                 "install libavif15)");
        load_error = load_message;
        return;
    }
#define RESOLVE(field, symbol)                                                                                  \
    do {                                                                                                        \
        *(void **)(&avif.field) = dlsym(library, #symbol);                                                      \
        if (*(void **)(&avif.field) == NULL) {                                                                  \
            snprintf(load_message, sizeof load_message, "the installed libavif lacks %s", #symbol);             \
            load_error = load_message;                                                                          \
            return;                                                                                             \
        }                                                                                                       \
    } while (0)
    RESOLVE(version, avifVersion);
    RESOLVE(result_to_string, avifResultToString);
    RESOLVE(decoder_create, avifDecoderCreate);
    RESOLVE(decoder_destroy, avifDecoderDestroy);
    RESOLVE(decoder_set_io_memory, avifDecoderSetIOMemory);
    RESOLVE(decoder_parse, avifDecoderParse);
    RESOLVE(decoder_next_image, avifDecoderNextImage);
    RESOLVE(decoder_reset, avifDecoderReset);
    RESOLVE(rgb_image_set_defaults, avifRGBImageSetDefaults);
    RESOLVE(image_yuv_to_rgb, avifImageYUVToRGB);
    RESOLVE(crop_rect_convert_clean_aperture_box, avifCropRectConvertCleanApertureBox);
#undef RESOLVE
    load_error = NULL;
}

const struct cavif_library *cavif_load(const char **message) {
    pthread_once(&load_once, load);
    *message = load_error;
    return load_error == NULL ? &avif : NULL;
}
