#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

// libmicrohttpd (LGPL-2.1+) is loaded with dlopen when `ecbrates serve` starts, not linked: no
// other command pays for it at start-up, and the library stays a separate, replaceable shared
// object, as the LGPL asks of a program that uses it.
typedef struct cmhd_api {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                       MHD_AccessHandlerCallback dh, void *dh_cls, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    MHD_socket (*quiesce_daemon)(struct MHD_Daemon *daemon);
    const char *(*lookup_connection_value)(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key);
    int (*get_connection_values)(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                 MHD_KeyValueIterator iterator, void *iterator_cls);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t size, size_t block_size,
                                                           MHD_ContentReaderCallback crc, void *crc_cls,
                                                           MHD_ContentReaderFreeCallback crfc);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status_code,
                                      struct MHD_Response *response);
    void (*destroy_response)(struct MHD_Response *response);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...);
    const char *(*get_version)(void);
    enum MHD_Result (*is_feature_supported)(enum MHD_FEATURE feature);
    void (*suspend_connection)(struct MHD_Connection *connection);
    void (*resume_connection)(struct MHD_Connection *connection);
} cmhd_api;

/// Loads libmicrohttpd (its ABI 12, as Debian's libmicrohttpd12 ships it) into `api`: NULL, or
/// the loader's words for what failed.
static inline const char *cmhd_load(cmhd_api *api) {
    void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return dlerror();
#define CMHD_SYMBOL(field, name) \
    if ((*(void **)(&api->field) = dlsym(library, name)) == NULL) return dlerror();
    CMHD_SYMBOL(start_daemon, "MHD_start_daemon")
    CMHD_SYMBOL(stop_daemon, "MHD_stop_daemon")
    CMHD_SYMBOL(quiesce_daemon, "MHD_quiesce_daemon")
    CMHD_SYMBOL(lookup_connection_value, "MHD_lookup_connection_value")
    CMHD_SYMBOL(get_connection_values, "MHD_get_connection_values")
    CMHD_SYMBOL(create_response_from_buffer, "MHD_create_response_from_buffer")
    CMHD_SYMBOL(create_response_from_callback, "MHD_create_response_from_callback")
    CMHD_SYMBOL(add_response_header, "MHD_add_response_header")
    CMHD_SYMBOL(queue_response, "MHD_queue_response")
    CMHD_SYMBOL(destroy_response, "MHD_destroy_response")
    CMHD_SYMBOL(get_daemon_info, "MHD_get_daemon_info")
    CMHD_SYMBOL(get_version, "MHD_get_version")
    CMHD_SYMBOL(is_feature_supported, "MHD_is_feature_supported")
    CMHD_SYMBOL(suspend_connection, "MHD_suspend_connection")
    CMHD_SYMBOL(resume_connection, "MHD_resume_connection")
#undef CMHD_SYMBOL
    return NULL;
}

/// What a daemon is started with (MHD_start_daemon is variadic, which Swift cannot call).
typedef struct cmhd_settings {
    unsigned int flags;
    uint16_t port;
    /// The address to bind (IPv4 or IPv6), or NULL for every address; ignored with listen_fd.
    const struct sockaddr *address;
    /// A socket already listening (systemd's socket activation), or -1.
    int listen_fd;
    unsigned int threads;
    unsigned int connection_limit;
    /// Seconds a connection may stay idle (slowloris).
    unsigned int connection_timeout;
    /// Bytes of a connection's memory for the request line and headers (limits their size).
    size_t connection_memory_limit;
    unsigned int listen_backlog;
    /// TLS (flags carry MHD_USE_TLS): the key and the certificate chain, PEM, NUL-terminated;
    /// NULL for plain HTTP.
    const char *tls_key;
    const char *tls_cert;
    /// Hears libmicrohttpd's own messages (a connection refused at the limit, a socket error),
    /// one line each, with the daemon's `cls`; or NULL.
    void (*log)(void *cls, const char *message);
} cmhd_settings;

/// What libmicrohttpd's logger is given: where its formatted messages go.
typedef struct cmhd_logger {
    void (*log)(void *cls, const char *message);
    void *cls;
} cmhd_logger;

/// libmicrohttpd's logger (printf-style, which Swift cannot take): formats and passes on.
static void cmhd_log_trampoline(void *cls, const char *format, va_list arguments) {
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    size_t length = 0;
    while (message[length] != 0) length++;
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) message[--length] = 0;
    const cmhd_logger *logger = (const cmhd_logger *)cls;
    logger->log(logger->cls, message);
}

static inline struct MHD_Daemon *cmhd_start(const cmhd_api *api, const cmhd_settings *settings,
                                            MHD_AccessHandlerCallback handler,
                                            MHD_RequestCompletedCallback completed,
                                            void *(*uri_logger)(void *cls, const char *uri,
                                                                struct MHD_Connection *connection),
                                            MHD_NotifyConnectionCallback connections, void *cls) {
    struct MHD_OptionItem options[16];
    int count = 0;
    if (settings->log != NULL) {
        // Kept for the daemon's life (one per server process).
        cmhd_logger *logger = malloc(sizeof(cmhd_logger));
        if (logger != NULL) {
            logger->log = settings->log;
            logger->cls = cls;
            options[count++] = (struct MHD_OptionItem){MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)cmhd_log_trampoline, logger};
        }
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout, NULL};
    options[count++] =
        (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->connection_memory_limit, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_logger, cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connections, cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog, NULL};
    if (settings->tls_key != NULL && settings->tls_cert != NULL) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)settings->tls_key};
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)settings->tls_cert};
    }
    if (settings->threads > 1)
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, settings->threads, NULL};
    if (settings->listen_fd >= 0)
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, settings->listen_fd, NULL};
    else if (settings->address != NULL)
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)settings->address};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return api->start_daemon(settings->flags, settings->port, NULL, NULL, handler, cls, MHD_OPTION_ARRAY, options,
                             MHD_OPTION_END);
}

/// Whether the loaded libmicrohttpd speaks TLS (built with GnuTLS, as Debian's is).
static inline int cmhd_has_tls(const cmhd_api *api) {
    return api->is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/// The flag that lets a request be suspended while another thread answers it.
static inline unsigned int cmhd_suspend_flag(void) { return MHD_ALLOW_SUSPEND_RESUME; }

/// The flag that turns TLS on.
static inline unsigned int cmhd_tls_flag(void) { return MHD_USE_TLS; }

// libmicrohttpd's closed enums, whose constants Swift does not import by their C names.
static inline enum MHD_Result cmhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result cmhd_no(void) { return MHD_NO; }
static inline enum MHD_ValueKind cmhd_header_kind(void) { return MHD_HEADER_KIND; }
static inline enum MHD_ResponseMemoryMode cmhd_must_copy(void) { return MHD_RESPMEM_MUST_COPY; }
static inline int cmhd_connection_started(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}
/// Why a request ended, in words for the access log; NULL when it was answered.
static inline const char *cmhd_termination(enum MHD_RequestTerminationCode code) {
    switch (code) {
    case MHD_REQUEST_TERMINATED_COMPLETED_OK: return NULL;
    case MHD_REQUEST_TERMINATED_TIMEOUT_REACHED: return "closed: idle past the timeout";
    case MHD_REQUEST_TERMINATED_CLIENT_ABORT: return "closed by the client";
    case MHD_REQUEST_TERMINATED_READ_ERROR: return "closed: a read error";
    case MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN: return "closed: the server stopped";
    default: return "closed: an error";
    }
}

/// The port the daemon listens on (after binding port 0), or 0.
static inline uint16_t cmhd_bound_port(const cmhd_api *api, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = api->get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
