#ifndef MCPACK_COPENSSL_SHIM_H
#define MCPACK_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>

/* EVP_PKEY_fromdata's selections are macros Swift cannot import. */
static inline int mcpack_selection_public_key(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int mcpack_selection_keypair(void) { return EVP_PKEY_KEYPAIR; }
#endif
