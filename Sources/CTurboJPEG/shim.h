#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

// libjpeg-turbo 2.1 on Debian bookworm: the TurboJPEG 2 API (tjInitDecompress, tjDecompress2), no tj3 functions.
#include <turbojpeg.h>

/// `TJSCALED` is a function-like macro, which Swift cannot import; this is the same integer ceil(dimension * factor).
static inline int cturbojpeg_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

#endif
