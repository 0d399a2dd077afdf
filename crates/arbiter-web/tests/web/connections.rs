//! Issue 9, item 1: the accept loop on a real socket. Clients that send their request slowly,
//! or hold connections open, cannot keep the site from a normal reader.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use arbiter_web::{AppState, Limits, serve_state};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::common::store;

/// A server on a free loopback port, stopped by sending on the returned channel.
async fn server(limits: Limits) -> (SocketAddr, oneshot::Sender<()>, JoinHandle<()>) {
    let store = store().await;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let state = AppState::new(store)
        .with_freshness(Duration::ZERO)
        .with_mail(crate::common::quiet_mail(), "http://localhost:8080");
    let task = tokio::spawn(serve_state(listener, state, limits, async {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

/// A connection from another loopback address than the normal reader's 127.0.0.1.
async fn connect_from(source: [u8; 4], server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((source, 0)))?;
    socket.connect(server).await
}

/// One request on its own connection; the status and the time to the whole answer.
async fn get(server: SocketAddr, path: &str) -> (u16, Duration) {
    get_from([127, 0, 0, 1], server, path).await
}

/// [`get`] from the loopback address `source`.
async fn get_from(source: [u8; 4], server: SocketAddr, path: &str) -> (u16, Duration) {
    let started = Instant::now();
    let mut stream = connect_from(source, server).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: arbiter.test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let answer = read_to_end(&mut stream).await;
    (status_of(&answer), started.elapsed())
}

async fn read_to_end(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_of(answer: &str) -> u16 {
    answer
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

/// Opens `count` connections from `source` and sends each a request line and one header line,
/// then another header line every half second, never finishing the head.
fn trickle(server: SocketAddr, source: [u8; 4], count: usize) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut open = Vec::new();
        for _ in 0..count {
            if let Ok(mut stream) = connect_from(source, server).await {
                let _ = stream
                    .write_all(b"GET / HTTP/1.1\r\nHost: arbiter.test\r\n")
                    .await;
                open.push(stream);
            }
        }
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            for stream in &mut open {
                let _ = stream.write_all(b"X-Slow: still here\r\n").await;
            }
        }
    })
}

/// Ten readers from `source`, one after another, each answered 200 within a second.
async fn ten_readers_answered(source: [u8; 4], server: SocketAddr) {
    for _ in 0..10 {
        let (status, took) = get_from(source, server, "/").await;
        assert_eq!(status, 200, "a reader from {source:?} is answered");
        assert!(
            took < Duration::from_secs(1),
            "the home page took {took:?} while slow clients held connections"
        );
    }
}

/// Stops the server, which must end within its grace period.
async fn stopped(stop: oneshot::Sender<()>, server: JoinHandle<()>) {
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(30), server)
        .await
        .expect("the server stops within its grace period")
        .unwrap();
}

/// A connection from each of `sources` that sends a request line and no more, 100 ms apart so
/// the server takes them in order.
async fn hold_heads(server: SocketAddr, sources: &[[u8; 4]]) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for &source in sources {
        let mut s = connect_from(source, server).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        held.push(s);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    held
}

/// A connection from `source` whose request is in flight: its head sent, its body still to
/// come.
async fn hold_body(server: SocketAddr, source: [u8; 4]) -> TcpStream {
    let mut s = connect_from(source, server).await.unwrap();
    s.write_all(
        b"POST /sign-in HTTP/1.1\r\nHost: arbiter.test\r\n\
          Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=",
    )
    .await
    .unwrap();
    s
}

/// `source`'s request is answered 200 within a second, and the connection `oldest` closed
/// without an answer.
async fn answered_in_place_of(source: [u8; 4], server: SocketAddr, oldest: &mut TcpStream) {
    let (status, took) = get_from(source, server, "/").await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(1), "took {took:?}");
    let closed = tokio::time::timeout(Duration::from_secs(1), read_to_end(oldest)).await;
    assert_eq!(
        closed.ok().as_deref(),
        Some(""),
        "the oldest waiting connection was closed, unanswered"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_is_answered_within_a_second_while_hundreds_of_connections_trickle_their_headers()
{
    let (addr, stop, server) = server(Limits::default()).await;
    // Three hundred from one address and sixty from each of two more: more than one address
    // may hold, and together over a tenth of what the server takes in total.
    let tricklers = [
        trickle(addr, [127, 0, 0, 2], 300),
        trickle(addr, [127, 0, 0, 3], 60),
        trickle(addr, [127, 0, 0, 4], 60),
    ];
    tokio::time::sleep(Duration::from_secs(2)).await;
    ten_readers_answered([127, 0, 0, 1], addr).await;
    for t in tricklers {
        t.abort();
    }
    stopped(stop, server).await;
}

#[tokio::test]
async fn a_connection_that_never_finishes_its_head_is_closed_after_the_header_time() {
    let limits = Limits {
        header_read: Duration::from_secs(1),
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: arbiter.test\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let closed = tokio::time::timeout(Duration::from_secs(5), read_to_end(&mut stream)).await;
    assert!(
        closed.is_ok(),
        "the server still held the connection after 5 s"
    );
    assert!(started.elapsed() >= Duration::from_millis(900));
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_header_time() {
    let limits = Limits {
        header_read: Duration::from_secs(1),
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"GET /static/arbiter.css HTTP/1.1\r\nHost: arbiter.test\r\n\r\n")
        .await
        .unwrap();
    // The answer comes, and then, with nothing more sent, the end of the connection.
    let answer = tokio::time::timeout(Duration::from_secs(5), read_to_end(&mut stream))
        .await
        .expect("an idle connection is closed within 5 s");
    assert_eq!(status_of(&answer), 200);
}

#[tokio::test]
async fn a_body_sent_too_slowly_is_answered_408() {
    let limits = Limits {
        request: Duration::from_secs(1),
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            b"POST /sign-in HTTP/1.1\r\nHost: arbiter.test\r\n\
              Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=",
        )
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(5), read_to_end(&mut stream))
        .await
        .expect("an answer within 5 s");
    assert_eq!(status_of(&answer), 408, "{answer}");
    assert!(answer.contains("within 1 seconds") || answer.contains("within 1 second"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue_30_a_reader_behind_one_address_with_hundreds_of_trickling_connections_is_answered() {
    let (addr, stop, server) = server(Limits::default()).await;
    let source = [127, 0, 0, 2];
    // Three hundred from the reader's own address (a school's network, a hall's Wi-Fi): more
    // than twice what one address may hold, each still sending its request's head.
    let per_address = Limits::default().per_address;
    assert!(300 > 2 * per_address, "the address is over its bound");
    let trickler = trickle(addr, source, 300);
    tokio::time::sleep(Duration::from_secs(2)).await;
    ten_readers_answered(source, addr).await;
    trickler.abort();
    stopped(stop, server).await;
}

#[tokio::test]
async fn a_newcomer_takes_the_place_of_its_address_s_oldest_connection_still_sending_its_head() {
    let limits = Limits {
        per_address: 3,
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    let mut held = hold_heads(addr, &[[127, 0, 0, 2]; 3]).await;
    answered_in_place_of([127, 0, 0, 2], addr, &mut held[0]).await;
}

#[tokio::test]
async fn connections_beyond_an_address_bound_all_being_answered_are_refused_at_once_and_others_still_served()
 {
    let limits = Limits {
        per_address: 3,
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    let mut held = Vec::new();
    // A request whose body is still coming is in flight: its connection is not waiting.
    for _ in 0..3 {
        held.push(hold_body(addr, [127, 0, 0, 2]).await);
    }
    // Give the server time to accept the three before the fourth arrives.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut fourth = connect_from([127, 0, 0, 2], addr).await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(2), read_to_end(&mut fourth))
        .await
        .expect("the refusal comes at once");
    assert_eq!(status_of(&answer), 503, "{answer}");
    assert!(answer.contains("Retry-After: 5"), "{answer}");
    assert!(answer.contains("Too many connections are open from your address"));
    let (status, _) = get(addr, "/").await;
    assert_eq!(status, 200, "another address is still served");
    // One of the three closes: its address may connect again.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from([127, 0, 0, 2], addr).await.unwrap();
    again
        .write_all(
            b"GET /static/arbiter.css HTTP/1.1\r\nHost: arbiter.test\r\nConnection: close\r\n\r\n",
        )
        .await
        .unwrap();
    assert_eq!(status_of(&read_to_end(&mut again).await), 200);
}

#[tokio::test]
async fn when_every_place_is_taken_a_reader_takes_the_place_of_the_oldest_idle_connection() {
    let limits = Limits {
        total: 2,
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    let mut held = hold_heads(addr, &[[127, 0, 0, 2], [127, 0, 0, 3]]).await;
    answered_in_place_of([127, 0, 0, 1], addr, &mut held[0]).await;
}

#[tokio::test]
async fn when_every_connection_is_being_answered_a_newcomer_is_refused_at_once() {
    let limits = Limits {
        total: 2,
        ..Limits::default()
    };
    let (addr, _stop, _server) = server(limits).await;
    // A request whose body is still coming is in flight: its connection is not idle.
    let _held = [
        hold_body(addr, [127, 0, 0, 2]).await,
        hold_body(addr, [127, 0, 0, 3]).await,
    ];
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, took) = get(addr, "/").await;
    assert_eq!(status, 503);
    assert!(took < Duration::from_secs(1), "took {took:?}");
}
