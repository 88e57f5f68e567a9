// Shims for OpenSSL 3 APIs that Swift cannot import directly (function-like macros and variadic
// functions). Each wraps one call, with a prefix, and holds no logic.
#ifndef HERALD_COPENSSL_SHIM_H
#define HERALD_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// OPENSSL_free is a macro that passes __FILE__ and __LINE__ to CRYPTO_free.
static inline void herald_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

// XN_FLAG_RFC2253 is built from casts Swift's macro importer rejects.
static inline unsigned long herald_XN_FLAG_RFC2253(void) {
    return XN_FLAG_RFC2253;
}

// BIO_set_mem_eof_return is a macro over BIO_ctrl.
static inline long herald_BIO_set_mem_eof_return(BIO *bio, long value) {
    return BIO_set_mem_eof_return(bio, value);
}

// SSL_CTX_set_mode is a macro over SSL_CTX_ctrl.
static inline long herald_SSL_CTX_set_mode(SSL_CTX *context, long mode) {
    return SSL_CTX_set_mode(context, mode);
}

// SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
static inline int herald_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

// SSL_CTX_add1_chain_cert is a macro over SSL_CTX_ctrl.
static inline int herald_SSL_CTX_add1_chain_cert(SSL_CTX *context, X509 *certificate) {
    return (int)SSL_CTX_add1_chain_cert(context, certificate);
}

// SSL_set_tlsext_host_name is a macro over SSL_ctrl.
static inline int herald_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

// SSL_OP_NO_RENEGOTIATION is built with SSL_OP_BIT, which Swift cannot import.
static inline uint64_t herald_SSL_OP_NO_RENEGOTIATION(void) {
    return SSL_OP_NO_RENEGOTIATION;
}

#endif
