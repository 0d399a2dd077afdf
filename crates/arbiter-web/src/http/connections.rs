//! The accept loop: every connection is bounded in number and in time, so clients that send
//! slowly (or never) cannot keep the site from everyone else (issue 9, item 1).
//!
//! - A request's head must arrive within [`Limits::header_read`]; hyper starts that clock when
//!   it waits for a head, so the same limit closes a keep-alive connection left idle.
//! - A request (reading its body included) is answered within [`Limits::request`], else 408.
//! - A connection lives at most [`Limits::lifetime`]: then it is closed after its current
//!   answer, or cut [`Limits::shutdown_grace`] later if the reader never takes that answer.
//! - At most [`Limits::per_address`] connections from one address (a trusted proxy is not
//!   counted per address: its clients are many people), and [`Limits::total`] in all. When
//!   all places are taken a new connection takes the place of the oldest one that is answering
//!   nothing, so clients holding connections open from many addresses cannot shut readers out.
//!   A connection that finds no place is answered 503 at once and closed, so it never waits.

use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tower::ServiceExt;

use crate::http::error::{Format, WebError};

/// How many connections the server holds and for how long.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Connections open at once, from everyone.
    pub total: usize,
    /// Connections open at once from one address (not applied to trusted proxies).
    pub per_address: usize,
    /// Time to send a request's head, and the longest a kept-alive connection may sit idle.
    pub header_read: Duration,
    /// Time to read a request's body and answer it.
    pub request: Duration,
    /// The longest one connection is kept, however busy.
    pub lifetime: Duration,
    /// Time the requests in flight get to finish when the server stops or a connection's
    /// lifetime ends.
    pub shutdown_grace: Duration,
}

impl Default for Limits {
    /// A school league's site: a few hundred readers at once at most, each browser opening
    /// about six connections; a school's network may put a few classes behind one address.
    /// The total stays an eighth below the process's open-file limit, so the database, the
    /// files and the listener always have descriptors left.
    fn default() -> Self {
        let total = open_file_limit().map_or(2048, |files| {
            usize::try_from(files - files / 8)
                .unwrap_or(usize::MAX)
                .clamp(16, 2048)
        });
        Limits {
            total,
            per_address: 128,
            header_read: Duration::from_secs(10),
            request: Duration::from_secs(30),
            lifetime: Duration::from_secs(300),
            shutdown_grace: Duration::from_secs(20),
        }
    }
}

/// The soft limit on this process's open files, where the system says it (Linux).
fn open_file_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Serves `router` on `listener` until `shutdown` completes, then gives the requests in flight
/// [`Limits::shutdown_grace`] to finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    trusted_proxies: Arc<[IpAddr]>,
    shutdown: impl Future<Output = ()>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .max_buf_size(64 * 1024);
    let (stopping, stop) = watch::channel(false);
    let server = Arc::new(Server {
        total: Arc::new(Semaphore::new(limits.total)),
        limits,
        per_address: PerAddress::default(),
        open: OpenConnections::default(),
        http,
        router,
        trusted_proxies,
        stop,
    });
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    pause_after_accept_error(&e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        tokio::spawn(server.clone().connection(stream, peer));
    }
    drop(listener);
    let _ = stopping.send(true);
    // Every connection holds a permit of `total`: having them all back means all have ended.
    let all = u32::try_from(server.limits.total).unwrap_or(u32::MAX);
    let _ =
        tokio::time::timeout(server.limits.shutdown_grace, server.total.acquire_many(all)).await;
}

/// What every connection shares.
struct Server {
    limits: Limits,
    total: Arc<Semaphore>,
    per_address: PerAddress,
    open: OpenConnections,
    http: hyper::server::conn::http1::Builder,
    router: Router,
    trusted_proxies: Arc<[IpAddr]>,
    stop: watch::Receiver<bool>,
}

impl Server {
    /// Admits one accepted connection within the bounds and serves it to its end.
    async fn connection(self: Arc<Self>, stream: TcpStream, peer: SocketAddr) {
        let address_permit = if self.trusted_proxies.contains(&peer.ip()) {
            None
        } else {
            match self.per_address.acquire(peer.ip(), self.limits.per_address) {
                Some(permit) => Some(permit),
                None => {
                    return refuse(stream, "Too many connections are open from your address").await;
                }
            }
        };
        let Some(total_permit) = self.place().await else {
            return refuse(stream, "The site has as many visitors as it can take").await;
        };
        // Held until the connection ends, so the bounds count open connections.
        let _permits = (total_permit, address_permit);
        let (slot, _registered) = self.open.register();
        let _ = stream.set_nodelay(true);
        let service = answer_within(self.router.clone(), peer, self.limits.request, slot.clone());
        let connection = self.http.serve_connection(TokioIo::new(stream), service);
        tokio::pin!(connection);
        let mut stop = self.stop.clone();
        tokio::select! {
            _ = connection.as_mut() => return,
            // Nothing is being answered: dropping the connection closes it.
            () = slot.evict.notified() => return,
            () = tokio::time::sleep(self.limits.lifetime) => {}
            _ = stop.wait_for(|stopping| *stopping) => {}
        }
        connection.as_mut().graceful_shutdown();
        let _ = tokio::time::timeout(self.limits.shutdown_grace, connection).await;
    }

    /// A place among the `total`: a free one, or, when all are taken, the place of the oldest
    /// connection that is answering nothing (a slow or idle client), so holding many
    /// connections open cannot shut readers out. `None` when every connection is busy.
    async fn place(&self) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = self.total.clone().try_acquire_owned() {
            return Some(permit);
        }
        if !self.open.evict_oldest_idle() {
            return None;
        }
        tokio::time::timeout(
            Duration::from_millis(250),
            self.total.clone().acquire_owned(),
        )
        .await
        .ok()?
        .ok()
    }
}

/// The open connections in the order they were accepted.
#[derive(Default)]
struct OpenConnections(Mutex<(u64, BTreeMap<u64, Arc<Slot>>)>);

/// One open connection: how many of its requests are being answered, and the signal to close.
#[derive(Default)]
struct Slot {
    in_flight: AtomicUsize,
    evicted: AtomicBool,
    evict: Notify,
}

impl OpenConnections {
    fn register(&self) -> (Arc<Slot>, Registered<'_>) {
        let mut open = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let (next, connections) = &mut *open;
        let id = *next;
        *next += 1;
        let slot = Arc::new(Slot::default());
        connections.insert(id, slot.clone());
        (slot, Registered { open: self, id })
    }

    /// Asks the oldest connection with no request in flight to close; false if there is none.
    fn evict_oldest_idle(&self) -> bool {
        let open = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let idle = open.1.values().find(|slot| {
            slot.in_flight.load(Ordering::Acquire) == 0 && !slot.evicted.load(Ordering::Acquire)
        });
        match idle {
            Some(slot) => {
                slot.evicted.store(true, Ordering::Release);
                // A stored permit: the connection sees it even if it is not waiting yet.
                slot.evict.notify_one();
                true
            }
            None => false,
        }
    }
}

/// A connection's entry among the open ones; dropping it removes the entry.
struct Registered<'a> {
    open: &'a OpenConnections,
    id: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        let mut open = self
            .open
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        open.1.remove(&self.id);
    }
}

/// Counts a request as in flight from its head's arrival until its answer is handed back.
struct InFlight(Arc<Slot>);

impl InFlight {
    fn start(slot: Arc<Slot>) -> Self {
        slot.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(slot)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The router as hyper's service for one connection: the peer's address for the rate limits,
/// and a 408 for a request not answered in time (a body sent too slowly, mostly).
fn answer_within(
    router: Router,
    peer: SocketAddr,
    limit: Duration,
    slot: Arc<Slot>,
) -> impl hyper::service::Service<
    Request<Incoming>,
    Response = Response<Body>,
    Error = Infallible,
    Future = impl Future<Output = Result<Response<Body>, Infallible>> + Send,
> {
    hyper::service::service_fn(move |mut request: Request<Incoming>| {
        let in_flight = InFlight::start(slot.clone());
        request.extensions_mut().insert(ConnectInfo(peer));
        let answer = router.clone().oneshot(request.map(Body::new));
        async move {
            let _in_flight = in_flight;
            match tokio::time::timeout(limit, answer).await {
                Ok(answered) => answered,
                Err(_) => {
                    let seconds = limit.as_secs();
                    let mut response = WebError::RequestTimeout(format!(
                        "The request was not received and answered within {seconds} seconds, so \
                         the server stopped waiting. Check the connection and send it again."
                    ))
                    .answer(Format::Html);
                    response.headers_mut().insert(
                        axum::http::header::CONNECTION,
                        axum::http::HeaderValue::from_static("close"),
                    );
                    Ok(response)
                }
            }
        }
    })
}

/// A short 503 written without reading the request, then the connection closed.
async fn refuse(mut stream: TcpStream, why: &'static str) {
    let body = format!("{why}; try again in a few seconds.\n");
    let answer = format!(
        "HTTP/1.1 {} Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        StatusCode::SERVICE_UNAVAILABLE.as_u16(),
        body.len()
    );
    let write = async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), write).await;
}

/// Out of descriptors (or memory) the accept would fail again at once: wait for connections
/// to end. Errors of one connection (reset before it was accepted) need no wait.
async fn pause_after_accept_error(e: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Open connections per address.
#[derive(Debug, Clone, Default)]
struct PerAddress(Arc<Mutex<HashMap<IpAddr, usize>>>);

impl PerAddress {
    fn acquire(&self, address: IpAddr, limit: usize) -> Option<AddressPermit> {
        let mut open = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let count = open.entry(address).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(AddressPermit {
            open: self.clone(),
            address,
        })
    }
}

/// One open connection of an address; dropping it frees the place.
#[derive(Debug)]
struct AddressPermit {
    open: PerAddress,
    address: IpAddr,
}

impl Drop for AddressPermit {
    fn drop(&mut self) {
        let mut open = self
            .open
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_place_back_when_a_connection_ends() {
        let open = PerAddress::default();
        let address: IpAddr = [192, 0, 2, 1].into();
        let first = open.acquire(address, 2);
        let second = open.acquire(address, 2);
        assert!(first.is_some() && second.is_some());
        assert!(
            open.acquire(address, 2).is_none(),
            "a third is over the bound"
        );
        assert!(
            open.acquire([192, 0, 2, 2].into(), 2).is_some(),
            "another address has its own bound"
        );
        drop(first);
        assert!(open.acquire(address, 2).is_some());
    }
}
