#ifndef CGIF_SHIM_H
#define CGIF_SHIM_H

// giflib 5: every call returns an error code (GIF_ERROR / D_GIF_ERR_*), nothing is printed and nothing exits.
#include <gif_lib.h>

#endif
