#include "CCurl.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>

// One pointer per libcurl function used; all set, or `load_error` says why not.
static struct {
    CURLcode (*global_init)(long);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_error = "libcurl was not loaded";
static char load_message[256];

static void load(void) {
    // libcurl.so.4 is the soname of every libcurl since 7.16; the packages name it libcurl4 (OpenSSL) or
    // libcurl3-gnutls (GnuTLS).
    const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_message, sizeof load_message,
                 "http and https need libcurl, which is not installed (Debian: apt-get install libcurl4)");
        load_error = load_message;
        return;
    }
#define RESOLVE(field, symbol)                                                                                  \
    do {                                                                                                        \
        *(void **)(&curl.field) = dlsym(library, symbol);                                                       \
        if (curl.field == NULL) {                                                                               \
            snprintf(load_message, sizeof load_message, "the installed libcurl is too old: it lacks %s", symbol); \
            load_error = load_message;                                                                          \
            return;                                                                                             \
        }                                                                                                       \
    } while (0)
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(version, "curl_version");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");      // 7.66
    RESOLVE(multi_wakeup, "curl_multi_wakeup");  // 7.68
    RESOLVE(multi_info_read, "curl_multi_info_read");
#undef RESOLVE
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_message, sizeof load_message, "libcurl failed to start: %s", curl.easy_strerror(code));
        load_error = load_message;
        return;
    }
    load_error = NULL;
}

const char *ccurl_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

const char *ccurl_version(void) {
    return ccurl_load() == NULL ? curl.version() : NULL;
}

// The wrappers below are called only after `ccurl_load` returned NULL.

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *easy) { curl.easy_cleanup(easy); }

CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl.easy_setopt(easy, option, value);
}

CURLcode ccurl_easy_setopt_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return curl.easy_setopt(easy, option, value);
}

// libcurl 7.x opens its connections without close-on-exec; this marks each one as it is made (before it connects).
static int close_on_exec(void *data, curl_socket_t socket, curlsocktype purpose) {
    (void)data;
    (void)purpose;
    int flags = fcntl(socket, F_GETFD);
    if (flags >= 0) fcntl(socket, F_SETFD, flags | FD_CLOEXEC);
    return CURL_SOCKOPT_OK;
}

CURLcode ccurl_easy_close_sockets_on_exec(CURL *easy) {
    return curl.easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, close_on_exec);
}

CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl.easy_getinfo(easy, info, value);
}

const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) {
    return curl.slist_append(list, string);
}

void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLM *ccurl_multi_init(void) { return curl.multi_init(); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }

CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy) { return curl.multi_add_handle(multi, easy); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy) { return curl.multi_remove_handle(multi, easy); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }

CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms, int *ready) {
    return curl.multi_poll(multi, NULL, 0, timeout_ms, ready);
}

CURLMcode ccurl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }

int ccurl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = curl.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
