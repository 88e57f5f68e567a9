// Shims for OpenSSL 3 APIs that Swift cannot import directly (function-like macros and variadic
// functions). Each wraps one call, with a prefix, and holds no logic.
#ifndef HERALD_COPENSSL_SHIM_H
#define HERALD_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#endif
