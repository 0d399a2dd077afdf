//! Issue 9, item 1, as the attack was made: `arbiter serve` as a process with few file
//! descriptors (a `ulimit -n` of 256), more connections trickling their headers from several
//! addresses than it has descriptors for, and a normal reader who must still be answered
//! within a second. Before connections were bounded, the tricklers took every descriptor and
//! nobody else was served.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A child process that is killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One GET on its own connection from 127.0.0.1: the status, 0 if there was no answer.
async fn get(server: SocketAddr, path: &str) -> u16 {
    let Ok(mut stream) = TcpStream::connect(server).await else {
        return 0;
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: arbiter.test\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).await.is_err() {
        return 0;
    }
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer)
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

/// Connections from `source` that send a request line, then a header line every half second,
/// and open again whenever the server closes them.
fn trickle(server: SocketAddr, source: [u8; 4], count: usize) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut open: Vec<Option<TcpStream>> = (0..count).map(|_| None).collect();
        loop {
            for slot in &mut open {
                if slot.is_none() {
                    *slot = connect_from(source, server).await.ok();
                    if let Some(stream) = slot {
                        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n").await;
                    }
                } else if let Some(stream) = slot
                    && stream.write_all(b"X-Slow: still here\r\n").await.is_err()
                {
                    *slot = None;
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    })
}

async fn connect_from(source: [u8; 4], server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((source, 0)))?;
    tokio::time::timeout(Duration::from_secs(1), socket.connect(server))
        .await
        .map_err(|_| std::io::ErrorKind::TimedOut)?
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_short_of_descriptors_still_answers_a_reader_while_more_connections_trickle() {
    let dir = std::env::temp_dir().join(format!("arbiter-slow-clients-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let _server = Running(
        Command::new("sh")
            .args([
                "-c",
                r#"ulimit -n 256 && exec "$0" serve --bind "$1" --db "$2""#,
                env!("CARGO_BIN_EXE_arbiter"),
                &addr.to_string(),
            ])
            .arg(dir.join("arbiter.db"))
            .current_dir(&dir)
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while get(addr, "/").await != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // 300 connections from three addresses, each under the per-address bound: together more
    // than the 256 descriptors the server has.
    let tricklers: Vec<_> = [[127, 0, 0, 2], [127, 0, 0, 3], [127, 0, 0, 4]]
        .into_iter()
        .map(|source| trickle(addr, source, 100))
        .collect();
    tokio::time::sleep(Duration::from_secs(3)).await;
    for _ in 0..10 {
        let asked = Instant::now();
        let status = get(addr, "/").await;
        let took = asked.elapsed();
        assert_eq!(status, 200, "the home page was not served ({took:?})");
        assert!(
            took < Duration::from_secs(1),
            "the home page took {took:?} while 300 connections trickled"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    for trickler in tricklers {
        trickler.abort();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
