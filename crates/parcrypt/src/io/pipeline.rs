//! The one pipeline: a reader thread fills buffers from the input, the
//! calling thread works on them (spreading the work over cores with
//! [`crate::par`]), and a writer thread writes the results in order, so
//! reading, the work and writing overlap. Every streaming path in the crate
//! (the ciphers' [`crate::pipe`], the `stream` format, Merkle hashing of
//! pipes) runs through here.
//!
//! Three shapes:
//! - [`in_place`]: each buffer is read, transformed where it is, written,
//!   and handed straight back to the reader;
//! - [`batches`]: each input batch becomes a separate output batch (the
//!   `stream` format: segments grow or shrink by their tags); input buffers
//!   go back to the reader once worked on, output buffers come back from
//!   the writer;
//! - [`with_writer`]: no reader, for work that reads its input itself
//!   (positional reads by every thread).
//!
//! What holds in every shape:
//! - **Bounded memory.** Only the buffers the caller hands in circulate;
//!   none is made here, so the caller's budget is the pipeline's.
//! - **The writer's error wins.** A closed pipe or a full disk stops the
//!   writer, which makes the work fail with "writer stopped"; the caller
//!   sees the writer's own error, which says what happened.
//! - **Nothing is left running.** Whatever way the work ends, the reader
//!   and writer are stopped and joined before the call returns.
//! - **Buffers are recycled**, and handed back to the caller at the end
//!   ([`with_writer`], [`batches`]) so that a call's buffers can serve the
//!   next one; buffers that may hold plaintext wipe themselves when dropped
//!   (their type's business, e.g. the stream's `Buffer`).

use std::io::{self, Read, Write};
use std::ops::Deref;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::{Scope, ScopedJoinHandle};

/// Filled buffers from the reader thread, in input order.
pub(crate) struct Source<B> {
    full: Receiver<io::Result<(B, bool)>>,
    free: SyncSender<B>,
}

impl<B> Source<B> {
    /// The next filled buffer and whether more input follows it (after a
    /// buffer with `false`, there is no next).
    ///
    /// # Errors
    /// The reader's error; "reader stopped" if it is gone (asked again
    /// after the last buffer).
    pub(crate) fn next(&self) -> io::Result<(B, bool)> {
        self.full.recv().map_err(|_| io::Error::other("reader stopped"))?
    }

    /// Hands a spent buffer back to the reader to fill again.
    pub(crate) fn give(&self, buf: B) {
        // The reader has stopped at the end of the input: the buffer is
        // dropped instead.
        let _ = self.free.send(buf);
    }
}

/// Empty buffers from, and full buffers to, the writer thread.
pub(crate) struct Sink<B> {
    full: SyncSender<B>,
    /// `None` in place, where the writer hands buffers to the reader.
    free: Option<Receiver<B>>,
}

impl<B> Sink<B> {
    /// A buffer the writer has finished with, still holding what it wrote
    /// (waits for one).
    ///
    /// # Errors
    /// "writer stopped" if the writer is gone (its own error is what the
    /// pipeline returns).
    pub(crate) fn take(&self) -> io::Result<B> {
        let free = self
            .free
            .as_ref()
            .ok_or_else(|| io::Error::other("an in-place pipeline has no output buffers"))?;
        free.recv().map_err(|_| io::Error::other("writer stopped"))
    }

    /// Hands `buf` to the writer, to be written after everything sent before.
    ///
    /// # Errors
    /// "writer stopped" if the writer is gone.
    pub(crate) fn send(&self, buf: B) -> io::Result<()> {
        self.full
            .send(buf)
            .map_err(|_| io::Error::other("writer stopped"))
    }
}

/// Runs `work` with a writer thread writing what it sends to `output`;
/// `buffers` circulate between them (with two, producing the next overlaps
/// writing the last). At the end, every buffer back from the writer goes to
/// `done` (buffers `work` still held are dropped). `work` sends only
/// buffers it took from the [`Sink`]: the writer hands each back on a queue
/// with room for `buffers` alone, so sending one more deadlocks at the end.
///
/// # Errors
/// The writer's error if it failed, else `work`'s.
pub(crate) fn with_writer<W, B, T, E>(
    output: W,
    buffers: Vec<B>,
    work: impl FnOnce(&Sink<B>) -> Result<T, E>,
    mut done: impl FnMut(B),
) -> Result<T, E>
where
    W: Write + Send,
    B: Deref<Target = [u8]> + Send,
    E: From<io::Error>,
{
    std::thread::scope(|scope| {
        let (free_tx, free_rx) = sync_channel(buffers.len());
        for buf in buffers {
            let _ = free_tx.send(buf);
        }
        let (full_tx, full_rx) = sync_channel(1);
        let writer = spawn_writer(scope, output, full_rx, free_tx);
        let sink = Sink {
            full: full_tx,
            free: Some(free_rx),
        };
        let result = work(&sink);
        // Close the queue but keep `free` open until the writer is done, so
        // it can finish what is queued.
        let Sink { full, free } = sink;
        drop(full);
        let wrote = join(writer);
        free.into_iter().flat_map(|f| f.into_iter()).for_each(&mut done);
        wrote?;
        result
    })
}

/// Runs `work` between a reader thread filling `inputs` from `input` with
/// `fill` (which says whether more input follows) and a writer thread
/// writing `outputs` to `output`: `work` takes a filled input from the
/// [`Source`] and an output from the [`Sink`], sends the output on and gives
/// the input back. At the end, the outputs go to `done`.
///
/// # Errors
/// The writer's error if it failed, else `work`'s (which sees the reader's
/// errors from [`Source::next`]).
pub(crate) fn batches<R, W, I, O, T, E>(
    input: R,
    output: W,
    inputs: Vec<I>,
    outputs: Vec<O>,
    fill: impl FnMut(&mut R, &mut I) -> io::Result<bool> + Send,
    work: impl FnOnce(&Source<I>, &Sink<O>) -> Result<T, E>,
    done: impl FnMut(O),
) -> Result<T, E>
where
    R: Read + Send,
    W: Write + Send,
    I: Send,
    O: Deref<Target = [u8]> + Send,
    E: From<io::Error>,
{
    with_writer(
        output,
        outputs,
        |sink| {
            std::thread::scope(|scope| {
                let (free_tx, free_rx) = sync_channel(inputs.len());
                for buf in inputs {
                    let _ = free_tx.send(buf);
                }
                let source = spawn_reader(scope, input, fill, free_rx, free_tx);
                // Dropping `source` on return stops the reader.
                work(&source, sink)
            })
        },
        done,
    )
}

/// Runs `work` between a reader thread filling `buffers` from `input` with
/// `fill` (which says whether more input follows) and a writer thread
/// writing them to `output` and handing them straight back to the reader:
/// `work` takes a filled buffer from the [`Source`], transforms it where it
/// is and sends it to the [`Sink`] (which has no buffers to [`Sink::take`];
/// `work` may also send buffers of its own, such as a last one).
///
/// # Errors
/// The writer's error if it failed, else `work`'s (which sees the reader's
/// errors from [`Source::next`]).
pub(crate) fn in_place<R, W, B, T, E>(
    input: R,
    output: W,
    buffers: Vec<B>,
    fill: impl FnMut(&mut R, &mut B) -> io::Result<bool> + Send,
    work: impl FnOnce(&Source<B>, &Sink<B>) -> Result<T, E>,
) -> Result<T, E>
where
    R: Read + Send,
    W: Write + Send,
    B: Deref<Target = [u8]> + Send,
    E: From<io::Error>,
{
    std::thread::scope(|scope| {
        // Room for every buffer and one `work` adds, so handing a buffer
        // back never waits.
        let (free_tx, free_rx) = sync_channel(buffers.len() + 1);
        for buf in buffers {
            let _ = free_tx.send(buf);
        }
        let (full_tx, full_rx) = sync_channel(1);
        let writer = spawn_writer(scope, output, full_rx, free_tx.clone());
        let source = spawn_reader(scope, input, fill, free_rx, free_tx);
        let sink = Sink {
            full: full_tx,
            free: None,
        };
        let result = work(&source, &sink);
        // Stops the reader (no more buffers asked for or taken) and the
        // writer (nothing more to write).
        drop(source);
        drop(sink);
        join(writer)?;
        result
    })
}

/// Starts the reader: it fills each buffer from `free` with `fill` and
/// sends it on, until the input ends, a read fails, or the [`Source`] it
/// returns is dropped.
fn spawn_reader<'scope, R, B>(
    scope: &'scope Scope<'scope, '_>,
    mut input: R,
    mut fill: impl FnMut(&mut R, &mut B) -> io::Result<bool> + Send + 'scope,
    free: Receiver<B>,
    give: SyncSender<B>,
) -> Source<B>
where
    R: Read + Send + 'scope,
    B: Send + 'scope,
{
    let (full_tx, full_rx) = sync_channel(1);
    scope.spawn(move || {
        while let Ok(mut buf) = free.recv() {
            let (stop, msg) = match fill(&mut input, &mut buf) {
                Ok(more) => (!more, Ok((buf, more))),
                Err(e) => (true, Err(e)),
            };
            if full_tx.send(msg).is_err() || stop {
                break;
            }
        }
    });
    Source {
        full: full_rx,
        free: give,
    }
}

/// Starts the writer: it writes each buffer from `full` to `output` in
/// order and hands it to `back`, until `full` closes or a write fails; then
/// flushes.
fn spawn_writer<'scope, W, B>(
    scope: &'scope Scope<'scope, '_>,
    mut output: W,
    full: Receiver<B>,
    back: SyncSender<B>,
) -> ScopedJoinHandle<'scope, io::Result<()>>
where
    W: Write + Send + 'scope,
    B: Deref<Target = [u8]> + Send + 'scope,
{
    scope.spawn(move || {
        for buf in full {
            output.write_all(&buf)?;
            // Whoever recycles buffers may have stopped (the reader at the
            // end of the input): the buffer is dropped instead.
            let _ = back.send(buf);
        }
        output.flush()
    })
}

/// The writer's result; a panic in the output's `write` is an error, not a
/// crash of the caller.
fn join(writer: ScopedJoinHandle<'_, io::Result<()>>) -> io::Result<()> {
    writer
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("writer panicked")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Accepts `room` bytes, then fails as a closed pipe does.
    struct Closes {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for Closes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Fills a buffer of 7 bytes; more input follows if it is full.
    fn fill7(input: &mut &[u8], buf: &mut Vec<u8>) -> io::Result<bool> {
        buf.resize(7, 0);
        let n = crate::io::fill(input, buf)?;
        buf.truncate(n);
        Ok(n == 7)
    }

    fn data() -> Vec<u8> {
        (0..1000u32).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn in_place_keeps_order_with_three_buffers() {
        let data = data();
        let mut out = Vec::new();
        let bufs = vec![Vec::new(), Vec::new(), Vec::new()];
        let batches = in_place(&data[..], &mut out, bufs, fill7, |source, sink| {
            let mut n = 0;
            loop {
                let (mut buf, more) = source.next()?;
                buf.iter_mut().for_each(|b| *b ^= 0x5a);
                sink.send(buf)?;
                n += 1;
                if !more {
                    // A last buffer of the work's own.
                    sink.send(b"end".to_vec())?;
                    return Ok::<_, io::Error>(n);
                }
            }
        })
        .unwrap();
        assert_eq!(batches, data.len().div_ceil(7));
        let (body, end) = out.split_at(data.len());
        assert!(body.iter().zip(&data).all(|(o, d)| *o == d ^ 0x5a));
        assert_eq!(end, b"end");
    }

    #[test]
    fn batches_recycle_only_the_buffers_given() {
        let data = data();
        let mut out = Vec::new();
        let mut back = 0;
        let inputs = vec![Vec::new(), Vec::new()];
        let outputs = vec![Vec::new(), Vec::new()];
        batches(
            &data[..],
            &mut out,
            inputs,
            outputs,
            fill7,
            |source, sink| loop {
                let (buf, more) = source.next()?;
                let mut o = sink.take()?;
                o.clear();
                o.extend(buf.iter().rev());
                sink.send(o)?;
                source.give(buf);
                if !more {
                    return Ok::<_, io::Error>(());
                }
            },
            |_| back += 1,
        )
        .unwrap();
        assert_eq!(back, 2, "both output buffers come back, and no others");
        let want: Vec<u8> = data.chunks(7).flat_map(|c| c.iter().rev().copied()).collect();
        assert_eq!(out, want);
    }

    #[test]
    fn the_writers_error_wins_over_the_stop_it_causes() {
        let data = data();
        let mut closes = Closes {
            room: 20,
            got: Vec::new(),
        };
        let err = batches(
            &data[..],
            &mut closes,
            vec![Vec::new(), Vec::new()],
            vec![Vec::new(), Vec::new()],
            fill7,
            |source, sink| loop {
                let (buf, more) = source.next()?;
                let mut o = sink.take()?;
                o.clone_from(&buf);
                sink.send(o)?;
                source.give(buf);
                if !more {
                    return Ok::<_, io::Error>(());
                }
            },
            drop,
        )
        .expect_err("the output closed");
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "{err}");
        assert_eq!(closes.got, data[..20]);
        // The same in place and with the writer alone.
        let mut closes = Closes {
            room: 3,
            got: Vec::new(),
        };
        let err = in_place(
            &data[..],
            &mut closes,
            vec![Vec::new(); 3],
            fill7,
            |source, sink| loop {
                let (buf, more) = source.next()?;
                sink.send(buf)?;
                if !more {
                    return Ok::<_, io::Error>(());
                }
            },
        )
        .expect_err("the output closed");
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "{err}");
        let err = with_writer(
            Closes {
                room: 0,
                got: Vec::new(),
            },
            vec![Vec::new(), Vec::new()],
            |sink| -> io::Result<()> {
                loop {
                    let mut o: Vec<u8> = sink.take()?;
                    o.push(1);
                    sink.send(o)?;
                }
            },
            drop,
        )
        .expect_err("the output closed");
        assert_eq!(err.kind(), io::ErrorKind::BrokenPipe, "{err}");
    }

    #[test]
    fn a_read_error_reaches_the_work_and_stops_everything() {
        struct Fails(usize);
        impl Read for Fails {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                self.0 -= 1;
                buf[0] = 1;
                Ok(1)
            }
        }
        let fill = |input: &mut Fails, buf: &mut Vec<u8>| {
            buf.resize(4, 0);
            crate::io::fill(input, buf).map(|n| n == 4)
        };
        let mut out = Vec::new();
        let err = in_place(
            Fails(10),
            &mut out,
            vec![Vec::new(); 3],
            fill,
            |source, sink| -> io::Result<()> {
                loop {
                    let (buf, _) = source.next()?;
                    sink.send(buf)?;
                }
            },
        )
        .expect_err("the read fails");
        assert_eq!(err.to_string(), "disk on fire");
        assert_eq!(out, [1; 8], "the two full buffers before the error");
    }
}
