//! The memory instructions (legacy gather/scatter, SVM, OWORD, DWORD_ATOMIC, LSC) on
//! [`super::memory`].
