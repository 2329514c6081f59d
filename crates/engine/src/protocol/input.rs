//! Protocol input: a line reader that caps line length and tolerates any bytes, and the two
//! line sources the session loop reads from.
//!
//! [`read_line_capped`] reads through `BufRead::fill_buf` in whatever chunks the reader has,
//! keeps at most [`MAX_LINE_BYTES`] of a line and discards the rest, so a 1 MB line (or an
//! endless one) never grows memory. Invalid UTF-8 is replaced (`U+FFFD`), and a NUL byte makes
//! the line an error, as does an overlong one: either way the caller answers one `status` line.
//!
//! [`ThreadedInput`] runs the reader on its own thread, as a GUI engine must: the thread queues
//! each line and then raises the search's stop flag, so any new line interrupts a running
//! search. [`SyncInput`] reads on the caller's thread and never interrupts; tests use it to
//! replay sessions deterministically.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;

use thiserror::Error;

/// The longest line kept, in bytes. A whole NBoard game (`set game` with 60 moves, evals and
/// times) is about 2 KB.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why an input line cannot be used at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// The line is longer than [`MAX_LINE_BYTES`]; it was discarded.
    #[error("line of {bytes} bytes ignored: the limit is {MAX_LINE_BYTES}")]
    TooLong {
        /// The line's length without its terminator.
        bytes: usize,
    },
    /// The line contains a NUL byte.
    #[error("line ignored: it contains a NUL byte at byte {index}")]
    Nul {
        /// Byte index of the first NUL.
        index: usize,
    },
}

/// One item of input.
#[derive(Debug)]
pub enum Input {
    /// A line without its `\n` or `\r\n`, or why it cannot be used.
    Line(Result<String, LineError>),
    /// The end of the input (or a read error, which ends it too).
    Eof,
}

/// Reads one line of at most `cap` bytes (without the terminator); `Ok(None)` at end of input.
///
/// The excess of a longer line is read and dropped, and the line becomes
/// [`LineError::TooLong`]. A last line without a terminator counts.
pub fn read_line_capped<R: BufRead>(
    reader: &mut R,
    cap: usize,
) -> io::Result<Option<Result<String, LineError>>> {
    let mut kept: Vec<u8> = Vec::new();
    let mut total = 0usize;
    let mut seen_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(chunk.len());
        let room = cap.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..take.min(room)]);
        total = total.saturating_add(take);
        reader.consume(take + usize::from(newline.is_some()));
        if newline.is_some() {
            break;
        }
    }
    if total > cap {
        return Ok(Some(Err(LineError::TooLong { bytes: total })));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    if let Some(index) = kept.iter().position(|&b| b == 0) {
        return Ok(Some(Err(LineError::Nul { index })));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&kept).into_owned())))
}

/// Where the session loop gets its lines.
pub trait LineSource {
    /// The next line, waiting for it if needed.
    fn next_input(&mut self) -> Input;

    /// Whether a line is already waiting (so a search about to start would be stale).
    fn has_pending(&mut self) -> bool;

    /// Whether a new line raises the stop flag by itself, so that the loop may think while
    /// it waits (pondering). Not for a source read on the loop's own thread.
    fn interruptible(&self) -> bool {
        false
    }

    /// Readies `stop` for the next command: lowered, unless a line is already waiting, in which
    /// case it is raised (the command will find itself interrupted at once).
    fn arm(&mut self, stop: &AtomicBool) {
        stop.store(false, Ordering::SeqCst);
        if self.has_pending() {
            stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Reads lines on the caller's thread; nothing interrupts a search. Deterministic.
pub struct SyncInput<R> {
    reader: R,
    done: bool,
}

impl<R: BufRead> SyncInput<R> {
    /// A source reading `reader`.
    pub fn new(reader: R) -> SyncInput<R> {
        SyncInput {
            reader,
            done: false,
        }
    }
}

impl<R: BufRead> LineSource for SyncInput<R> {
    fn next_input(&mut self) -> Input {
        if self.done {
            return Input::Eof;
        }
        match read_line_capped(&mut self.reader, MAX_LINE_BYTES) {
            Ok(Some(line)) => Input::Line(line),
            Ok(None) => {
                self.done = true;
                Input::Eof
            }
            Err(e) => {
                log::warn!("input error, treated as end of input: {e}");
                self.done = true;
                Input::Eof
            }
        }
    }

    fn has_pending(&mut self) -> bool {
        false
    }
}

/// Reads lines on a thread of its own. Each line (and the end of input) is queued and then
/// raises `stop`, both under a lock that [`LineSource::arm`] also takes to lower the flag and
/// look at the queue. So a line either is seen waiting when a command is armed, or raises the
/// flag after it; and the late raise of a line the loop has already taken cannot interrupt the
/// command that line started.
pub struct ThreadedInput {
    rx: Receiver<Input>,
    queue: VecDeque<Input>,
    gate: Arc<Mutex<()>>,
    /// The end of input has been handed out (the reader thread may not have exited yet).
    closed: bool,
}

impl ThreadedInput {
    /// Starts the reader thread on `reader`; every line it reads sets `stop`.
    pub fn spawn<R: BufRead + Send + 'static>(
        mut reader: R,
        stop: Arc<AtomicBool>,
    ) -> io::Result<ThreadedInput> {
        let (tx, rx) = mpsc::channel();
        let gate = Arc::new(Mutex::new(()));
        let reader_gate = gate.clone();
        thread::Builder::new()
            .name("protocol-input".into())
            .spawn(move || loop {
                let input = match read_line_capped(&mut reader, MAX_LINE_BYTES) {
                    Ok(Some(line)) => Input::Line(line),
                    Ok(None) => Input::Eof,
                    Err(e) => {
                        log::warn!("input error, treated as end of input: {e}");
                        Input::Eof
                    }
                };
                let end = matches!(input, Input::Eof);
                {
                    let _gate = reader_gate.lock().unwrap_or_else(|e| e.into_inner());
                    // Raise the flag before the line becomes visible, so whoever receives it
                    // also sees the flag (both happen under the gate that `arm` takes).
                    stop.store(true, Ordering::SeqCst);
                    if tx.send(input).is_err() {
                        return;
                    }
                }
                if end {
                    return;
                }
            })?;
        Ok(ThreadedInput {
            rx,
            queue: VecDeque::new(),
            gate,
            closed: false,
        })
    }
}

impl LineSource for ThreadedInput {
    fn interruptible(&self) -> bool {
        !self.closed
    }

    fn next_input(&mut self) -> Input {
        let input = match self.queue.pop_front() {
            Some(input) => input,
            None => self.rx.recv().unwrap_or(Input::Eof),
        };
        if matches!(input, Input::Eof) {
            self.closed = true;
        }
        input
    }

    fn has_pending(&mut self) -> bool {
        // After the end of input, every check is news: nothing more will come, and the reader
        // thread may still be between sending the end and exiting (so the channel is not yet
        // seen as disconnected).
        if self.closed || !self.queue.is_empty() {
            return true;
        }
        match self.rx.try_recv() {
            Ok(input) => {
                self.queue.push_back(input);
                true
            }
            // A finished reader thread means end of input: that is news too.
            Err(TryRecvError::Disconnected) => true,
            Err(TryRecvError::Empty) => false,
        }
    }

    fn arm(&mut self, stop: &AtomicBool) {
        let gate = self.gate.clone();
        let _gate = gate.lock().unwrap_or_else(|e| e.into_inner());
        stop.store(false, Ordering::SeqCst);
        if self.has_pending() {
            stop.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn lines(bytes: &[u8], cap: usize) -> Vec<Result<String, LineError>> {
        // A tiny buffer forces lines to span many chunks.
        let mut r = BufReader::with_capacity(3, Cursor::new(bytes.to_vec()));
        let mut out = Vec::new();
        while let Some(l) = read_line_capped(&mut r, cap).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn splits_lines_and_strips_terminators() {
        assert_eq!(
            lines(b"ping 1\r\nhint 2\n\nlast", 100),
            [
                Ok("ping 1".into()),
                Ok("hint 2".into()),
                Ok(String::new()),
                Ok("last".into())
            ]
        );
        assert!(lines(b"", 100).is_empty());
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        let mut input = vec![b'x'; 1 << 20];
        input.extend_from_slice(b"\nping 2\n");
        assert_eq!(
            lines(&input, 64),
            [
                Err(LineError::TooLong { bytes: 1 << 20 }),
                Ok("ping 2".into())
            ]
        );
        // Exactly at the cap is fine.
        assert_eq!(lines(b"abcd\n", 4), [Ok("abcd".into())]);
    }

    #[test]
    fn nul_and_invalid_utf8() {
        assert_eq!(lines(b"pi\0ng\n", 100), [Err(LineError::Nul { index: 2 })]);
        assert_eq!(lines(b"go\xff\n", 100), [Ok("go\u{fffd}".into())]);
    }

    #[test]
    fn the_reader_thread_raises_the_stop_flag() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut input = ThreadedInput::spawn(Cursor::new(b"a\nb".to_vec()), stop.clone()).unwrap();
        assert!(matches!(input.next_input(), Input::Line(Ok(l)) if l == "a"));
        assert!(matches!(input.next_input(), Input::Line(Ok(l)) if l == "b"));
        assert!(matches!(input.next_input(), Input::Eof));
        assert!(stop.load(Ordering::SeqCst));
        assert!(input.has_pending(), "a closed input counts as pending news");
    }
}
