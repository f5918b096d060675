#ifndef MCPACK_COPENSSL_SHIM_H
#define MCPACK_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#endif
