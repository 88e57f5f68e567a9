// nghttp2 1.52 from Debian's libnghttp2-dev. Shims adapt what Swift cannot import (macros,
// variadic functions); each has a prefix and a one-line reason, and holds no logic.
#ifndef HERALD_CNGHTTP2_SHIM_H
#define HERALD_CNGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>

#endif
