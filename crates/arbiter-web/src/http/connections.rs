//! The accept loop: every connection is bounded in number and in time, so clients that send
//! slowly (or never) cannot keep the site from everyone else (issue 9, item 1).
//!
//! - A request's head must arrive within [`Limits::header_read`]; hyper starts that clock when
//!   it waits for a head, so the same limit closes a keep-alive connection left idle.
//! - A request (reading its body included) is answered within [`Limits::request`], else 408.
//! - A connection lives at most [`Limits::lifetime`]: then it is closed after its current
//!   answer, or cut [`Limits::shutdown_grace`] later if the reader never takes that answer.
//! - At most [`Limits::per_address`] connections from one address (a trusted proxy is not
//!   counted per address: its clients are many people), and [`Limits::total`] in all. A
//!   connection is *waiting* while no request of its is in flight: it is still sending a
//!   request's head, or is kept alive idle after an answer (to hyper the two are one state: a
//!   head awaited). A request is in flight from its head's arrival until its answer is handed
//!   back, its body's arrival included, which [`Limits::request`] bounds.
//! - When an address has all its places, a newcomer from it takes the place of that address's
//!   oldest waiting connection, which is closed (issue 30, item 11: a school's network or a
//!   hall's Wi-Fi puts every phone behind one address, so clients trickling their heads from it
//!   must not shut its readers out). Only when every connection of the address has a request in
//!   flight is the newcomer refused: those are being answered, and each ends within
//!   [`Limits::request`].
//! - When all places are taken a new connection takes the place of the oldest waiting one of
//!   any address, so clients holding connections open from many addresses cannot shut readers
//!   out. A connection that finds no place is answered 503 at once and closed, so it never
//!   waits. A browser whose kept-alive connection was closed while idle opens another.

use std::collections::{BTreeMap, BTreeSet, HashMap};
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
    open: OpenConnections,
    http: hyper::server::conn::http1::Builder,
    router: Router,
    trusted_proxies: Arc<[IpAddr]>,
    stop: watch::Receiver<bool>,
}

impl Server {
    /// Admits one accepted connection within the bounds and serves it to its end.
    async fn connection(self: Arc<Self>, stream: TcpStream, peer: SocketAddr) {
        let address = (!self.trusted_proxies.contains(&peer.ip())).then_some(peer.ip());
        // Held until the connection ends, so the bounds count open connections.
        let Some((slot, registered)) = self.open.register(address, self.limits.per_address) else {
            return refuse(stream, "Too many connections are open from your address").await;
        };
        let Some(_total_permit) = self.place(registered.id).await else {
            return refuse(stream, "The site has as many visitors as it can take").await;
        };
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

    /// A place among the `total` for the connection `newcomer`: a free one, or, when all are
    /// taken, the place of the oldest other connection that is waiting (a slow or idle client),
    /// so holding many connections open cannot shut readers out. `None` when every other
    /// connection is busy.
    async fn place(&self, newcomer: u64) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = self.total.clone().try_acquire_owned() {
            return Some(permit);
        }
        if !self.open.evict_oldest_waiting(newcomer) {
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

/// The open connections in the order they were accepted, and those of each address not yet
/// asked to close (the ones its bound counts).
#[derive(Default)]
struct OpenConnections(Mutex<Open>);

#[derive(Default)]
struct Open {
    next: u64,
    all: BTreeMap<u64, Arc<Slot>>,
    by_address: HashMap<IpAddr, BTreeSet<u64>>,
}

/// One open connection: its address (none for a trusted proxy), how many of its requests are
/// in flight, and the signal to close.
#[derive(Default)]
struct Slot {
    address: Option<IpAddr>,
    in_flight: AtomicUsize,
    evicted: AtomicBool,
    evict: Notify,
}

impl OpenConnections {
    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a new connection from `address`, within its bound of `per_address`: when the
    /// address has all its places, its oldest waiting connection is asked to close and the
    /// newcomer has its place. `None` when every connection of the address has a request in
    /// flight.
    fn register(
        &self,
        address: Option<IpAddr>,
        per_address: usize,
    ) -> Option<(Arc<Slot>, Registered<'_>)> {
        let mut open = self.lock();
        if let Some(address) = address {
            let full = open
                .by_address
                .get(&address)
                .is_some_and(|ids| ids.len() >= per_address);
            if full {
                let oldest_waiting = open.by_address[&address]
                    .iter()
                    .copied()
                    .find(|id| open.all.get(id).is_some_and(|slot| slot.waiting()))?;
                open.evict(oldest_waiting);
            }
        }
        let id = open.next;
        open.next += 1;
        let slot = Arc::new(Slot {
            address,
            ..Slot::default()
        });
        open.all.insert(id, slot.clone());
        if let Some(address) = address {
            open.by_address.entry(address).or_default().insert(id);
        }
        Some((slot, Registered { open: self, id }))
    }

    /// Asks the oldest waiting connection other than `except` to close; false if there is none.
    fn evict_oldest_waiting(&self, except: u64) -> bool {
        let mut open = self.lock();
        let oldest = open
            .all
            .iter()
            .find(|(id, slot)| **id != except && slot.waiting())
            .map(|(id, _)| *id);
        match oldest {
            Some(id) => {
                open.evict(id);
                true
            }
            None => false,
        }
    }
}

impl Open {
    /// Asks the connection `id` to close; it no longer counts against its address's bound.
    fn evict(&mut self, id: u64) {
        let Some(slot) = self.all.get(&id) else {
            return;
        };
        slot.evicted.store(true, Ordering::Release);
        // A stored permit: the connection sees it even if it is not waiting yet.
        slot.evict.notify_one();
        if let Some(address) = slot.address {
            self.forget_address(address, id);
        }
    }

    fn forget_address(&mut self, address: IpAddr, id: u64) {
        if let Some(ids) = self.by_address.get_mut(&address) {
            ids.remove(&id);
            if ids.is_empty() {
                self.by_address.remove(&address);
            }
        }
    }
}

impl Slot {
    /// No request of its in flight, and not yet asked to close.
    fn waiting(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0 && !self.evicted.load(Ordering::Acquire)
    }
}

/// A connection's entry among the open ones; dropping it removes the entry.
struct Registered<'a> {
    open: &'a OpenConnections,
    id: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        let mut open = self.open.lock();
        if let Some(slot) = open.all.remove(&self.id)
            && let Some(address) = slot.address
        {
            open.forget_address(address, self.id);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn busy(slot: &Slot) {
        slot.in_flight.fetch_add(1, Ordering::AcqRel);
    }

    #[test]
    fn an_address_at_its_bound_gives_its_oldest_waiting_place_to_a_newcomer_else_refuses() {
        let open = OpenConnections::default();
        let address = Some(IpAddr::from([192, 0, 2, 1]));
        let (first, _r1) = open.register(address, 2).unwrap();
        let (second, r2) = open.register(address, 2).unwrap();
        busy(&second);
        let (third, _r3) = open
            .register(address, 2)
            .expect("a newcomer takes the place of the oldest waiting connection");
        assert!(
            first.evicted.load(Ordering::Acquire),
            "the oldest waiting one is closed"
        );
        assert!(
            !second.evicted.load(Ordering::Acquire),
            "one being answered is kept"
        );
        busy(&third);
        assert!(
            open.register(address, 2).is_none(),
            "every connection of the address is being answered: refused"
        );
        assert!(
            open.register(Some([192, 0, 2, 2].into()), 2).is_some(),
            "another address has its own bound"
        );
        assert!(
            (0..5).all(|_| open.register(None, 2).is_some()),
            "a trusted proxy is not bounded per address"
        );
        drop(r2);
        assert!(
            open.register(address, 2).is_some(),
            "an address gets its place back when a connection ends"
        );
    }
}
