// libjxl (JPEG XL), loaded on first use: `dlopen("libjxl.so.0.7")` instead of linking it, so that a process that never
// meets a JPEG XL file never pays for mapping libjxl and what it links (libhwy, libbrotli, liblcms2, libstdc++)
// at start-up (docs/benchmarks.md). The declarations come from the system's <jxl/decode.h>; the functions are reached
// through one table of pointers, resolved once.
#ifndef THUMBTABLE_CJXL_H
#define THUMBTABLE_CJXL_H

#include <jxl/decode.h>

/// The libjxl functions ThumbTable calls, every one resolved (never NULL) once `cjxl_load` has returned it.
struct cjxl_library {
    uint32_t (*_Nonnull DecoderVersion)(void);
    JxlDecoder *_Nullable (*_Nonnull DecoderCreate)(const JxlMemoryManager *_Nullable);
    void (*_Nonnull DecoderDestroy)(JxlDecoder *_Nullable);
    JxlDecoderStatus (*_Nonnull DecoderSubscribeEvents)(JxlDecoder *_Nonnull, int);
    JxlDecoderStatus (*_Nonnull DecoderSetKeepOrientation)(JxlDecoder *_Nonnull, JXL_BOOL);
    JxlDecoderStatus (*_Nonnull DecoderSetUnpremultiplyAlpha)(JxlDecoder *_Nonnull, JXL_BOOL);
    JxlDecoderStatus (*_Nonnull DecoderSetPreferredColorProfile)(JxlDecoder *_Nonnull,
                                                                 const JxlColorEncoding *_Nonnull);
    JxlDecoderStatus (*_Nonnull DecoderSetInput)(JxlDecoder *_Nonnull, const uint8_t *_Nonnull, size_t);
    void (*_Nonnull DecoderCloseInput)(JxlDecoder *_Nonnull);
    JxlDecoderStatus (*_Nonnull DecoderProcessInput)(JxlDecoder *_Nonnull);
    JxlDecoderStatus (*_Nonnull DecoderGetBasicInfo)(const JxlDecoder *_Nonnull, JxlBasicInfo *_Nonnull);
    JxlDecoderStatus (*_Nonnull DecoderImageOutBufferSize)(const JxlDecoder *_Nonnull,
                                                           const JxlPixelFormat *_Nonnull, size_t *_Nonnull);
    JxlDecoderStatus (*_Nonnull DecoderSetImageOutBuffer)(JxlDecoder *_Nonnull, const JxlPixelFormat *_Nonnull,
                                                          void *_Nonnull, size_t);
};

/// Loads libjxl, once per process. Returns the function table, or NULL with `*message` saying why not (the library
/// is missing or lacks a function), the same message on every call.
const struct cjxl_library *_Nullable cjxl_load(const char *_Nullable *_Nonnull message);

#endif
