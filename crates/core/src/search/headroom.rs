//! Address-space headroom for new threads, estimated before they start.
//!
//! Under a limit on the address space (`RLIMIT_AS`, `ulimit -v`), every mapping counts,
//! reserved or not: a new thread's stack (2 MiB, Rust's default), its signal stack, and, the
//! first time a thread allocates, a malloc arena that glibc reserves 64 MiB for (up to eight
//! arenas per core; later threads share them). The system refuses a thread cleanly when its
//! stack does not fit ([`std::thread::Builder::spawn`] returns an error), but when the limit
//! runs out a moment later, inside the runtime's start of the thread (its signal stack) or in
//! a small allocation on either side, the process panics or aborts, and which of the two
//! happens depends on the threads' timing. So a parallel job asks first: this module reads
//! the limit (`/proc/self/limits`) and the address space in use (`/proc/self/status`), and
//! refuses a thread count whose estimated need does not fit with a margin. Without a limit,
//! or off Linux, it has nothing to check.

// Off Linux only `room_for_threads` is used (and answers `Ok`).
#![cfg_attr(not(target_os = "linux"), allow(dead_code))]

/// A thread's stack and guard page, and its signal stack with its guard (generously: the
/// signal stack grows with the CPU's register file).
const PER_THREAD: u64 = (2 << 20) + (256 << 10);

/// What glibc reserves for one malloc arena on a 64-bit system.
const ARENA: u64 = 64 << 20;

/// glibc's cap on arenas: eight per core on a 64-bit system.
const ARENAS_PER_CORE: u64 = 8;

/// Left free besides, for the allocations of the job itself.
const MARGIN: u64 = 32 << 20;

/// The address space (bytes) that starting `threads` threads may take on a machine with
/// `cores` cores: their stacks, and an arena for each as long as the cap allows.
pub fn threads_need(threads: usize, cores: usize) -> u64 {
    let threads = threads as u64;
    let arenas = threads.min(ARENAS_PER_CORE * cores.max(1) as u64);
    threads * PER_THREAD + arenas * ARENA + MARGIN
}

/// The soft limit on the address space, in bytes, from the text of `/proc/self/limits`
/// (`None` when it is unlimited or the line is missing).
pub fn parse_address_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// The address space in use, in bytes, from the text of `/proc/self/status` (its `VmSize`
/// line, in kB).
pub fn parse_vm_size(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let mut words = line["VmSize:".len()..].split_whitespace();
    let kb: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kb * 1024)
}

/// Whether `limit` bytes of address space, `used` of them in use, leave room for `need`
/// more; the error says the figures, in MiB.
pub fn fits(limit: u64, used: u64, need: u64) -> Result<(), String> {
    if used.checked_add(need).is_some_and(|total| total <= limit) {
        return Ok(());
    }
    Err(format!(
        "the address-space limit (ulimit -v) is {} MiB with {} MiB in use, and they need about \
         {} MiB more (stacks and allocator arenas)",
        limit >> 20,
        used >> 20,
        need >> 20
    ))
}

/// Whether this process has the address space to start `threads` more threads (see the
/// module docs); `Ok` when there is no limit or it cannot be read. The one place the core
/// reads files: its own two lines of `/proc/self`, on Linux only.
pub fn room_for_threads(threads: usize) -> Result<(), String> {
    #[cfg(target_os = "linux")]
    if threads > 0 {
        let read = |path| std::fs::read_to_string(path).ok();
        let limit = read("/proc/self/limits").and_then(|t| parse_address_limit(&t));
        let used = read("/proc/self/status").and_then(|t| parse_vm_size(&t));
        if let (Some(limit), Some(used)) = (limit, used) {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            return fits(limit, used, threads_need(threads, cores));
        }
    }
    let _ = threads;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: &str =
        "Limit                     Soft Limit           Hard Limit           Units     \n\
        Max cpu time              unlimited            unlimited            seconds   \n\
        Max address space         4294967296           unlimited            bytes     \n\
        Max file locks            unlimited            unlimited            locks     \n";

    #[test]
    fn the_soft_address_limit_is_read_and_unlimited_is_none() {
        assert_eq!(parse_address_limit(LIMITS), Some(4 << 30));
        let unlimited = LIMITS.replace("4294967296          ", "unlimited           ");
        assert_eq!(parse_address_limit(&unlimited), None);
        assert_eq!(parse_address_limit("Max cpu time  unlimited"), None);
        assert_eq!(parse_address_limit(""), None);
    }

    #[test]
    fn vm_size_is_read_in_kilobytes() {
        let status = "Name:\tothello\nVmPeak:\t  999 kB\nVmSize:\t 3891200 kB\nVmLck:\t 0 kB\n";
        assert_eq!(parse_vm_size(status), Some(3_891_200 * 1024));
        assert_eq!(parse_vm_size("VmSize:\t12 MB\n"), None);
        assert_eq!(parse_vm_size("VmSize:\tlots kB\n"), None);
        assert_eq!(parse_vm_size("Name:\tx\n"), None);
    }

    #[test]
    fn arenas_stop_at_eight_per_core() {
        let stacks = |n: u64| n * PER_THREAD + MARGIN;
        assert_eq!(threads_need(3, 2), stacks(3) + 3 * ARENA);
        assert_eq!(threads_need(255, 2), stacks(255) + 16 * ARENA);
        assert_eq!(threads_need(255, 0), stacks(255) + 8 * ARENA);
    }

    #[test]
    fn a_need_past_the_limit_is_refused_with_the_figures() {
        let mib = 1 << 20;
        assert_eq!(fits(4096 * mib, 3900 * mib, 196 * mib), Ok(()));
        let e = fits(4096 * mib, 3900 * mib, 197 * mib).unwrap_err();
        assert!(e.contains("4096 MiB with 3900 MiB in use"), "{e}");
        assert!(e.contains("about 197 MiB"), "{e}");
        assert!(fits(u64::MAX, u64::MAX, 1).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_reads_its_own_figures() {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        assert!(parse_vm_size(&status).unwrap() > 0);
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
        assert!(limits.lines().any(|l| l.starts_with("Max address space")));
    }
}
