//! The accept loop: at most `max_connections` connections at once, each served by hyper's
//! HTTP/1 with a header read timeout; on shutdown, no new connections, open ones finish within
//! a grace period, and whatever is left is closed.

use std::future::Future;
use std::io::{self, IoSlice};
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::Router;
use bytes::{Buf, Bytes};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

use super::refusal::{self, Refusal};
use super::{App, AppState};

/// Serves `app` on `listener` until `shutdown` resolves; then open streams end (with a
/// RUN_ERROR `SERVER_SHUTDOWN` if mid-run), no new connections are taken, and connections
/// still open after the shutdown grace are closed.
pub async fn serve<F>(listener: TcpListener, app: App, shutdown: F) -> io::Result<()>
where
    F: Future<Output = ()> + Send + 'static,
{
    let router = app.router(listener.local_addr()?);
    let st = app.state;
    let (log, max) = (st.cfg.log.unwrap_or(|_| {}), st.cfg.max_connections);
    let permits = Arc::new(Semaphore::new(max.max(1)));
    let mut conns = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    let mut full_logged = false;
    loop {
        let accepted = tokio::select! {
            _ = &mut shutdown => break,
            Some(_) = conns.join_next(), if !conns.is_empty() => continue,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors and the like: wait instead of spinning.
                log(&format!("accepting a connection: {e}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            if !std::mem::replace(&mut full_logged, true) {
                log(&format!(
                    "{max} connections open (--max-connections): answering new ones 503 until one closes"
                ));
            }
            // Every connection over the limit is answered 503 while the listener can accept
            // it (each answer is done within 1 s; past the descriptor limit, accept fails and
            // waits above).
            conns.spawn(busy(stream, max));
            continue;
        };
        full_logged = false;
        conns.spawn(connection(stream, peer, router.clone(), st.clone(), permit));
    }
    drop(listener);
    st.cancel.cancel();
    let closed = async { while conns.join_next().await.is_some() {} };
    if tokio::time::timeout(st.cfg.shutdown_grace, closed)
        .await
        .is_err()
    {
        log(&format!(
            "closing {} still open after the {} ms shutdown grace",
            crate::text::count(conns.len(), "connection"),
            st.cfg.shutdown_grace.as_millis()
        ));
        conns.shutdown().await;
    }
    Ok(())
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    st: Arc<AppState>,
    _permit: OwnedSemaphorePermit,
) {
    let cfg = &st.cfg;
    let _ = stream.set_nodelay(true);
    // Read as it is; written through the refusals' rewriter.
    let (read, write) = stream.into_split();
    let io = TokioIo::new(tokio::io::join(
        read,
        JsonRefusals {
            inner: write,
            pending: Bytes::new(),
            write_timeout: cfg.write_timeout,
            stalled: None,
        },
    ));
    // A client that shuts its side down after sending its request still reads the stream.
    // The head limit is set, not left to hyper's read buffer limit: that one is checked only
    // while the head is incomplete, so a read that fills the buffer's spare room past it could
    // bring in a whole larger head.
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(cfg.header_timeout)
        .max_header_size(400 * 1024)
        .half_close(true)
        .serve_connection(io, TowerToHyperService::new(router));
    let mut conn = pin!(conn);
    let result = tokio::select! {
        r = conn.as_mut() => r,
        _ = st.cancel.cancelled() => {
            conn.as_mut().graceful_shutdown();
            conn.as_mut().await
        }
    };
    let (Err(e), Some(log)) = (result, cfg.log) else {
        return;
    };
    // hyper's error for a failed write has the write's error as its source.
    let write_timed_out = std::error::Error::source(&e)
        .and_then(|c| c.downcast_ref::<io::Error>()?.get_ref())
        .is_some_and(|c| c.is::<WriteTimeout>());
    let why = if e.is_timeout() {
        let ms = cfg.header_timeout.as_millis();
        format!("closed: no complete request head within {ms} ms (--header-timeout)")
    } else if e.is_parse() || e.is_parse_too_large() || e.is_parse_status() {
        format!("refused a request hyper could not read: {e}")
    } else if write_timed_out {
        let ms = cfg.write_timeout.as_millis();
        format!("closed: the client read nothing for {ms} ms (write timeout)")
    } else {
        return;
    };
    log(&format!("{peer}: {why}"));
}

/// Over the connection limit: a 503 with the JSON error body, then close (within 1 s).
async fn busy(mut stream: TcpStream, max: usize) {
    let body = Refusal::TooManyConnections(max).body();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await?;
        // Read what the client sent so closing does not reset the connection before the
        // client reads the answer.
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
}

/// hyper answers a request head it cannot read (400, 414, 431) itself, with an empty body:
/// this wrapper gives those answers the same JSON error body as every other refusal. They are
/// the only responses with such a status and `content-length: 0` (every answer of the server
/// has a body), their head the first slice of a write. A bad request pipelined behind a good
/// one may share that slice with the good one's answer and then keeps hyper's empty body.
/// It also ends a connection whose writes have waited for the client past the write timeout.
struct JsonRefusals<T> {
    inner: T,
    /// What is left to write of the rewritten answer.
    pending: Bytes,
    /// How long a write may wait for the client to read: then it fails, and hyper closes the
    /// connection (a client that stopped reading, and the frame waiting for it, go).
    write_timeout: Duration,
    /// The write timeout's timer, running while writes wait for the client.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

/// The error of a write that waited past the write timeout.
#[derive(Debug, thiserror::Error)]
#[error("the client read nothing within the write timeout")]
struct WriteTimeout;

impl<T: AsyncWrite + Unpin> JsonRefusals<T> {
    /// A write to the client (`bufs` in one call), failing once writes have waited for the
    /// write timeout.
    fn write_inner(
        &mut self,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let timeout = self.write_timeout;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(stalled.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, WriteTimeout)))
    }

    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let pending = self.pending.clone();
            match ready!(self.write_inner(cx, &[IoSlice::new(&pending)]))? {
                0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                n => self.pending.advance(n),
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonRefusals<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_vectored(cx, &[IoSlice::new(buf)])
    }

    /// Vectored, so hyper queues a body's `Bytes` as they are (a frame shared by every stream)
    /// instead of copying each into the connection's own buffer. A response head comes first,
    /// in its own slice.
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        let head = bufs.iter().find(|b| !b.is_empty());
        match head.and_then(|h| Some((h.len(), refusal::rewrite_bare(h)?))) {
            // Taken whole; written by the flush that follows (or the next write).
            Some((n, answer)) => {
                self.pending = answer.into();
                Poll::Ready(Ok(n))
            }
            None => self.write_inner(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
