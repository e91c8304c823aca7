#ifndef STRATUS_CCURL_SHIM_H
#define STRATUS_CCURL_SHIM_H

// Swift cannot call the variadic curl_easy_setopt / curl_easy_getinfo / curl_multi_setopt,
// so each argument type gets one typed wrapper here.

#include <curl/curl.h>

typedef size_t (*stratus_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*stratus_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                              curl_off_t upload_total, curl_off_t uploaded);
typedef int (*stratus_curl_seek_callback)(void *context, curl_off_t offset, int origin);

static inline CURLcode stratus_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_setopt_data_callback(CURL *handle, CURLoption option,
                                                         stratus_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_setopt_progress_callback(CURL *handle, CURLoption option,
                                                             stratus_curl_progress_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_setopt_seek_callback(CURL *handle, CURLoption option,
                                                         stratus_curl_seek_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_setopt_blob(CURL *handle, CURLoption option, struct curl_blob *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode stratus_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode stratus_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode stratus_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode stratus_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// Named constants that Swift imports poorly (macros built from casts or expressions).
static const size_t STRATUS_CURL_WRITEFUNC_PAUSE = CURL_WRITEFUNC_PAUSE;
static const size_t STRATUS_CURL_READFUNC_PAUSE = CURL_READFUNC_PAUSE;
static const size_t STRATUS_CURL_READFUNC_ABORT = CURL_READFUNC_ABORT;
static const int STRATUS_CURL_SEEKFUNC_OK = CURL_SEEKFUNC_OK;
static const int STRATUS_CURL_SEEKFUNC_FAIL = CURL_SEEKFUNC_FAIL;
static const int STRATUS_CURLPAUSE_CONT = CURLPAUSE_CONT;
static const long STRATUS_CURL_GLOBAL_DEFAULT = CURL_GLOBAL_DEFAULT;
static const CURLversion STRATUS_CURLVERSION_NOW = CURLVERSION_NOW;

#endif
