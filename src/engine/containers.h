/* SPDX-License-Identifier: MIT */
/*
 * containers.h: pins the containers a container level's tests start to
 * the kept-back cores (man 1 flakesweep, CONTAINER LEVELS). It follows the
 * Docker Engine's event stream on its unix socket and, for each container
 * with the label that starts, asks the engine to narrow the container's
 * CPU set, so only the code under test runs on the lanes. It talks to the
 * engine through libcurl on the sweep's loop; it never runs a docker
 * command.
 */
#ifndef FLAKESWEEP_CONTAINERS_H
#define FLAKESWEEP_CONTAINERS_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

struct containers;

/* One container pinned (error NULL) or not (error says why; id is NULL
 * when the event stream itself ended). latency_ms runs from the engine's
 * start event to its answer to the update. */
typedef void (*containers_pin_cb)(void *arg, const char *id, const char *cpuset, int64_t latency_ms,
                                  const char *error);

/* The engine's socket: DOCKER_HOST when it is unix://PATH, else
 * /var/run/docker.sock when it is unset or empty. Caller frees. NULL with
 * *err (caller frees) when DOCKER_HOST names another kind of address. */
char *containers_socket(char **err);

/* GET /_ping, synchronously: 0, or -EHOSTUNREACH with *err (caller frees)
 * naming the socket and the reason. */
int containers_ping(const char *sock, char **err);

/* Whether a container (its id) is pinned already and needs no update. */
typedef bool (*containers_skip_fn)(void *arg, const char *id);

/* Pins, synchronously, every running container labelled label
 * ("key=value") to cpuset, calling pinned (latency: the update's own
 * time) for each that skip (may be NULL) does not name. Returns 0, or
 * -EHOSTUNREACH with *err (caller frees) when the engine cannot list
 * them. */
int containers_pin_labelled(const char *sock, const char *label, const char *cpuset,
                            containers_skip_fn skip, containers_pin_cb pinned, void *arg,
                            char **err);

/* Checks that the engine at sock answers, then follows its start events of
 * containers labelled label ("key=value") on loop and pins each to cpuset
 * ("0,1"). Returns 0, or -EHOSTUNREACH with *err (caller frees) naming the
 * socket and the reason. */
int containers_watch(uv_loop_t *loop, const char *sock, const char *label, const char *cpuset,
                     containers_pin_cb pinned, void *arg, struct containers **out, char **err);

/* Stops following and frees c once its handles are closed. NULL is a
 * no-op. */
void containers_close(struct containers *c);

#endif
