#ifndef STRATUS_COPENSSL_SHIM_H
#define STRATUS_COPENSSL_SHIM_H

// The EVP interface of libcrypto (OpenSSL 3 deprecates the older per-algorithm calls).

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/core_names.h>
#include <limits.h>
#include <stdint.h>

// OSSL_MAC_PARAM_DIGEST is a string macro; Swift sees it, but a function keeps call sites plain.
static inline OSSL_PARAM stratus_mac_digest_param(const char *digest_name) {
    return OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest_name, 0);
}

static inline OSSL_PARAM stratus_param_end(void) {
    return OSSL_PARAM_construct_end();
}

// StratusCrypt: the primitives of age v1 and of AES-SIV name encryption, through OpenSSL 3's
// EVP interfaces. Each returns 1 on success and 0 on failure (for an open, a failed tag check).

#include <openssl/crypto.h>
#include <openssl/kdf.h>
#include <string.h>

// HKDF-SHA256 (RFC 5869); an empty salt is HashLen zero bytes, as the RFC says.
static inline int stratus_hkdf_sha256(const unsigned char *ikm, size_t ikm_len, const unsigned char *salt,
                                      size_t salt_len, const unsigned char *info, size_t info_len,
                                      unsigned char *out, size_t out_len) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (ctx == NULL) return 0;
    unsigned char zero_salt[32] = {0};
    OSSL_PARAM params[5];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
    params[2] = salt_len > 0 ? OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len)
                             : OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, zero_salt, sizeof zero_salt);
    params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
    params[4] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, out_len, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}

// scrypt (RFC 7914) with r = 8, p = 1, N = 2^log_n, as age's passphrase stanza uses it.
static inline int stratus_scrypt(const unsigned char *password, size_t password_len, const unsigned char *salt,
                                 size_t salt_len, unsigned int log_n, unsigned char *out, size_t out_len) {
    if (log_n < 1 || log_n > 30) return 0;
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "SCRYPT", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (ctx == NULL) return 0;
    uint64_t n = (uint64_t)1 << log_n;
    uint32_t r = 8, p = 1;
    uint64_t maxmem = 128 * (uint64_t)r * n + (uint64_t)64 * 1024 * 1024;
    OSSL_PARAM params[7];
    params[0] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)password, password_len);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
    params[2] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n);
    params[3] = OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r);
    params[4] = OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p);
    params[5] = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem);
    params[6] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, out_len, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}

// The X25519 public key (32 bytes) of a private scalar (32 bytes).
static inline int stratus_x25519_public(const unsigned char *private_key, unsigned char *public_key) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, private_key, 32);
    if (key == NULL) return 0;
    size_t length = 32;
    int ok = EVP_PKEY_get_raw_public_key(key, public_key, &length) == 1 && length == 32;
    EVP_PKEY_free(key);
    return ok;
}

// X25519(private, peer) into shared (32 bytes); fails for an all-zero result.
static inline int stratus_x25519(const unsigned char *private_key, const unsigned char *peer, unsigned char *shared) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, private_key, 32);
    EVP_PKEY *other = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer, 32);
    EVP_PKEY_CTX *ctx = key != NULL ? EVP_PKEY_CTX_new(key, NULL) : NULL;
    size_t length = 32;
    int ok = key != NULL && other != NULL && ctx != NULL && EVP_PKEY_derive_init(ctx) == 1
             && EVP_PKEY_derive_set_peer(ctx, other) == 1 && EVP_PKEY_derive(ctx, shared, &length) == 1
             && length == 32;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(other);
    EVP_PKEY_free(key);
    if (ok) {
        unsigned char any = 0;
        for (int i = 0; i < 32; i++) any |= shared[i];
        ok = any != 0;
    }
    return ok;
}

// ChaCha20-Poly1305 (RFC 8439), no associated data: out receives length bytes, then the 16-byte tag.
static inline int stratus_chacha20_poly1305_seal(const unsigned char *key, const unsigned char *nonce,
                                                 const unsigned char *in, size_t length, unsigned char *out) {
    if (length > INT_MAX) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int written = 0, final_written = 0;
    int ok = EVP_EncryptInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key, nonce) == 1
             && (length == 0 || EVP_EncryptUpdate(ctx, out, &written, in, (int)length) == 1)
             && EVP_EncryptFinal_ex(ctx, out + written, &final_written) == 1
             && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + length) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

// Opens what stratus_chacha20_poly1305_seal made: in holds length bytes and then the tag; out
// receives length bytes, which the caller must not use unless the call returns 1.
static inline int stratus_chacha20_poly1305_open(const unsigned char *key, const unsigned char *nonce,
                                                 const unsigned char *in, size_t length, unsigned char *out) {
    if (length > INT_MAX) return 0;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    unsigned char tag[16];
    memcpy(tag, in + length, 16);
    int written = 0, final_written = 0;
    int ok = EVP_DecryptInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key, nonce) == 1
             && (length == 0 || EVP_DecryptUpdate(ctx, out, &written, in, (int)length) == 1)
             && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) == 1
             && EVP_DecryptFinal_ex(ctx, out + written, &final_written) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

// AES-256-SIV (RFC 5297, a 64-byte key), no associated data: out receives the 16-byte
// synthetic IV, then length bytes. Deterministic by design.
static inline int stratus_aes_siv_seal(const unsigned char *key, const unsigned char *in, size_t length,
                                       unsigned char *out) {
    if (length == 0 || length > INT_MAX) return 0;
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-SIV", NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int written = 0, final_written = 0;
    int ok = cipher != NULL && ctx != NULL && EVP_EncryptInit_ex2(ctx, cipher, key, NULL, NULL) == 1
             && EVP_EncryptUpdate(ctx, out + 16, &written, in, (int)length) == 1
             && EVP_EncryptFinal_ex(ctx, out + 16 + written, &final_written) == 1
             && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out) == 1;
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    return ok;
}

// Opens what stratus_aes_siv_seal made: in holds the 16-byte IV, then length bytes.
static inline int stratus_aes_siv_open(const unsigned char *key, const unsigned char *in, size_t length,
                                       unsigned char *out) {
    if (length == 0 || length > INT_MAX) return 0;
    EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-SIV", NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int written = 0, final_written = 0;
    int ok = cipher != NULL && ctx != NULL && EVP_DecryptInit_ex2(ctx, cipher, key, NULL, NULL) == 1
             && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, (void *)in) == 1
             && EVP_DecryptUpdate(ctx, out, &written, in + 16, (int)length) == 1
             && EVP_DecryptFinal_ex(ctx, out + written, &final_written) == 1;
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(cipher);
    return ok;
}

// Overwrites key material so it does not linger in freed memory.
static inline void stratus_cleanse(void *buffer, size_t length) {
    OPENSSL_cleanse(buffer, length);
}

#endif
