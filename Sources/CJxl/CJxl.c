#include "CJxl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct cjxl_library jxl;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libjxl was not loaded";
static char load_message[256];

static void load(void) {
    // Before 1.0 each libjxl minor version has its own soname (Debian 12: libjxl0.7); later ones are tried first.
    const char *names[] = {"libjxl.so.0.11", "libjxl.so.0.10", "libjxl.so.0.9", "libjxl.so.0.8", "libjxl.so.0.7"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_message, sizeof load_message,
                 "JPEG XL images need libjxl, which is not installed (Debian: apt-get install libjxl0.7)");
        load_error = load_message;
        return;
    }
#define RESOLVE(field)                                                                                          \
    do {                                                                                                        \
        *(void **)(&jxl.field) = dlsym(library, "Jxl" #field);                                                  \
        if (*(void **)(&jxl.field) == NULL) {                                                                   \
            snprintf(load_message, sizeof load_message, "the installed libjxl is too old (0.7 or later is "     \
                     "needed): it lacks Jxl%s", #field);                                                        \
            load_error = load_message;                                                                          \
            return;                                                                                             \
        }                                                                                                       \
    } while (0)
    RESOLVE(DecoderVersion);
    RESOLVE(DecoderCreate);
    RESOLVE(DecoderDestroy);
    RESOLVE(DecoderSubscribeEvents);
    RESOLVE(DecoderSetKeepOrientation);
    RESOLVE(DecoderSetUnpremultiplyAlpha);
    RESOLVE(DecoderSetPreferredColorProfile);
    RESOLVE(DecoderSetInput);
    RESOLVE(DecoderCloseInput);
    RESOLVE(DecoderProcessInput);
    RESOLVE(DecoderGetBasicInfo);
    RESOLVE(DecoderImageOutBufferSize);
    RESOLVE(DecoderSetImageOutBuffer);
#undef RESOLVE
    load_error = NULL;
}

const struct cjxl_library *cjxl_load(const char **message) {
    pthread_once(&load_once, load);
    *message = load_error;
    return load_error == NULL ? &jxl : NULL;
}
