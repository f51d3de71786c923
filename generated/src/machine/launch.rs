//! Launching a kernel over an ndrange: arguments, the thread payload Intel's compiler expects
//! (`%r0`, local ids, the `.input` layout), one work-group after another.
