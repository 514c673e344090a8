// libavif (AVIF image sequences), loaded on first use: `dlopen` instead of linking it, so that a process that never
// plays an animated AVIF never pays for mapping libavif and the AV1 codecs it links (libdav1d, libaom, libgav1,
// librav1e, libSvtAv1Enc, libyuv) at start-up, and a system without libavif loses AVIF sequences only. Still AVIF
// images go through libheif (CHeif). The declarations come from the system's <avif/avif.h>; the functions are reached
// through one table of pointers, resolved once.
#ifndef THUMBTABLE_CAVIF_H
#define THUMBTABLE_CAVIF_H

#include <avif/avif.h>

/// The libavif functions ThumbTable calls, every one resolved (never NULL) once `cavif_load` has returned it.
struct cavif_library {
    const char *_Nonnull (*_Nonnull version)(void);
    const char *_Nonnull (*_Nonnull result_to_string)(avifResult);
    avifDecoder *_Nullable (*_Nonnull decoder_create)(void);
    void (*_Nonnull decoder_destroy)(avifDecoder *_Nonnull);
    avifResult (*_Nonnull decoder_set_io_memory)(avifDecoder *_Nonnull, const uint8_t *_Nonnull, size_t);
    avifResult (*_Nonnull decoder_parse)(avifDecoder *_Nonnull);
    avifResult (*_Nonnull decoder_next_image)(avifDecoder *_Nonnull);
    avifResult (*_Nonnull decoder_reset)(avifDecoder *_Nonnull);
    void (*_Nonnull rgb_image_set_defaults)(avifRGBImage *_Nonnull, const avifImage *_Nonnull);
    avifResult (*_Nonnull image_yuv_to_rgb)(const avifImage *_Nonnull, avifRGBImage *_Nonnull);
    avifBool (*_Nonnull crop_rect_convert_clean_aperture_box)(avifCropRect *_Nonnull,
                                                              const avifCleanApertureBox *_Nonnull, uint32_t,
                                                              uint32_t, avifPixelFormat,
                                                              avifDiagnostics *_Nullable);
};

/// Loads libavif, once per process. Returns the function table, or NULL with `*message` saying why not (the library
/// is missing or lacks a function), the same message on every call.
const struct cavif_library *_Nullable cavif_load(const char *_Nullable *_Nonnull message);

/// The decoder's last error in libavif's words (a C array in a struct, which Swift sees as a tuple of 256 CChars).
static inline const char *_Nonnull cavif_decoder_diagnostic(const avifDecoder *_Nonnull decoder) {
    return decoder->diag.error;
}

#endif
