#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

// zlib's one-call deflate (`compress2`) and CRC-32: what compressed kitty uploads and their PNGs need. Linked in
// statically (Linking/static/libz.so), as it already is for libpng.
#include <zlib.h>

#endif
