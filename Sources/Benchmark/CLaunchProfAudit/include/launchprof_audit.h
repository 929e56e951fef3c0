// launchprof_audit.h — liblaunchprof-audit.so has no API: the dynamic loader
// calls its rtld-audit(7) functions when it is in LD_AUDIT and
// LAUNCHPROF_AUDIT_SOCKET is set (its protocol is in launchprof_format.h).
// `launchprof explain --loader` does this for you (docs/sampling.md).
#ifndef LAUNCHPROF_AUDIT_H
#define LAUNCHPROF_AUDIT_H
#endif
