#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H

// decode.h for still images (WebPDecoderConfig, with scaling); demux.h for WebPAnimDecoder (animated WebP).
#include <webp/decode.h>
#include <webp/demux.h>

#endif
