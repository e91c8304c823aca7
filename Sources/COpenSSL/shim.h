#ifndef STRATUS_COPENSSL_SHIM_H
#define STRATUS_COPENSSL_SHIM_H

// The EVP interface of libcrypto (OpenSSL 3 deprecates the older per-algorithm calls).

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/core_names.h>

// OSSL_MAC_PARAM_DIGEST is a string macro; Swift sees it, but a function keeps call sites plain.
static inline OSSL_PARAM stratus_mac_digest_param(const char *digest_name) {
    return OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest_name, 0);
}

static inline OSSL_PARAM stratus_param_end(void) {
    return OSSL_PARAM_construct_end();
}

#endif
