/*
 * Baseline for the HTTP server benchmark: libmicrohttpd with the daemon settings `ecbrates
 * serve` starts it with (an internal polling thread, epoll, an inter-thread channel, a pool of
 * THREADS threads, 1,024 connections, 15 s idle timeout, 32 KiB for a request's headers, a
 * listen backlog of 1,024), answering every request with the bytes of BODYFILE (ecbrates'
 * /latest, saved by the bench) and the same response headers, with fixed values. Each answer is
 * made, copied and queued per request, as ecbrates sends its answers: the floor is the cost of
 * libmicrohttpd alone, with nothing looked up, rendered or logged.
 *
 * usage: mhd_floor PORT THREADS BODYFILE     (PORT 0: any free one) prints "port N" once
 *        listening on 127.0.0.1; SIGTERM or SIGINT stop it (exit 0)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *body;
static size_t body_size;

/* Every request: the fixed body, once the request line and headers are in (the first call). */
static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **state) {
    static int started;
    if (*state != &started) { *state = &started; return MHD_YES; }
    if (*upload_data_size > 0) { *upload_data_size = 0; return MHD_YES; }
    struct MHD_Response *response = MHD_create_response_from_buffer(body_size, body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    MHD_add_response_header(response, "ETag", "\"01873089-74\"");
    MHD_add_response_header(response, "Last-Modified", "Wed, 30 Sep 2026 14:06:44 GMT");
    MHD_add_response_header(response, "Cache-Control", "public, max-age=3191, must-revalidate");
    MHD_add_response_header(response, "Vary", "Accept, Accept-Encoding");
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

static int read_body(const char *path) {
    FILE *in = fopen(path, "rb");
    if (!in) { perror(path); return 0; }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    rewind(in);
    body = malloc(size > 0 ? size : 1);
    body_size = fread(body, 1, size > 0 ? size : 0, in);
    fclose(in);
    return body_size == (size_t)size;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: mhd_floor PORT THREADS BODYFILE\n"); return 64; }
    int port = atoi(argv[1]), threads = atoi(argv[2]);
    if (port < 0 || port > 65535 || threads < 1) { fprintf(stderr, "mhd_floor: bad port or thread count\n"); return 64; }
    if (!read_body(argv[3])) return 66;

    /* The daemon's threads inherit this mask: the signals come to sigwait below, on this thread. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_EPOLL;
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_CONNECTION_LIMIT, 1024, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, 15, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, 32 * 1024, NULL},
        {MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL},
        {MHD_OPTION_SOCK_ADDR, 0, &address},
        /* As ecbrates: a pool only for more than one thread. */
        {threads > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, threads, NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_Daemon *daemon =
        MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, answer, NULL, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    if (daemon == NULL) { fprintf(stderr, "mhd_floor: cannot listen on 127.0.0.1:%d\n", port); return 71; }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("port %u\n", info ? info->port : (unsigned)port);
    fflush(stdout);

    int signal_number;
    sigwait(&stop, &signal_number);
    MHD_stop_daemon(daemon);
    free(body);
    return 0;
}
