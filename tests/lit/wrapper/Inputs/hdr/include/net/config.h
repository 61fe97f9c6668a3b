/* config.h: a project header without MPI calls, included by a sibling. */
#ifndef NET_CONFIG_H
#define NET_CONFIG_H
#define NET_TAG 21
#endif
