#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

// Only the simplified `png_image_*` API is used: errors come back in `png_image.message`, never through setjmp or
// libpng's default handlers (which print to stderr).
#include <png.h>

/// `PNG_FORMAT_RGBA` is a macro built from other macros with `|`, which Swift does not import.
static inline png_uint_32 cpng_format_rgba(void) {
    return PNG_FORMAT_RGBA;
}

/// `PNG_FORMAT_RGBA_COLORMAP` is a macro built from other macros with `|`, which Swift does not import.
static inline png_uint_32 cpng_format_rgba_colormap(void) {
    return PNG_FORMAT_RGBA_COLORMAP;
}

/// `PNG_FORMAT_RGB` likewise.
static inline png_uint_32 cpng_format_rgb(void) {
    return PNG_FORMAT_RGB;
}

#endif
