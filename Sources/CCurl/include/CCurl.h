// libcurl, loaded on first use: `dlopen("libcurl.so.4")` instead of linking it, so that a process that never
// fetches a URL (`thumbtable render FILE`) never pays for mapping libcurl and its TLS, Kerberos and LDAP libraries.
// The declarations (types, option and error numbers) come from the system's <curl/curl.h>; the functions are
// wrappers that call through pointers resolved once. Variadic curl functions get one wrapper per argument type,
// because Swift cannot call C variadic functions.
#ifndef THUMBTABLE_CCURL_H
#define THUMBTABLE_CCURL_H

#include <curl/curl.h>

/// Loads libcurl and calls `curl_global_init`, once per process. Returns NULL when libcurl is ready, or a message
/// saying why it is not (the library is missing or lacks a function), the same message on every call.
const char *ccurl_load(void);

/// The loaded library's version, e.g. "7.88.1"; NULL before `ccurl_load` succeeds.
const char *ccurl_version(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *easy);
CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode ccurl_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_callback(CURL *easy, CURLoption option, curl_write_callback value);
/// Makes every socket the transfer opens close-on-exec (CURLOPT_SOCKOPTFUNCTION), so no command we start holds one.
CURLcode ccurl_easy_close_sockets_on_exec(CURL *easy);
CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
const char *ccurl_easy_strerror(CURLcode code);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *multi);

/// The next finished transfer: its handle and result. Returns 0 when there is none.
int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result);

#endif
