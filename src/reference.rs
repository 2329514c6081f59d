//! PAIP-style mailbox board: the test oracle (stub, filled in by the reference task).
