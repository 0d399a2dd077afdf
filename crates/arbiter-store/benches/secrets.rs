//! What a sign-in costs the server: hashing a new password and checking one (argon2id, the
//! argon2 crate's default parameters: 19 MiB, 2 passes), and hashing a token for a look-up.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use arbiter_store::secrets;
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let phc = secrets::hash_password("correct horse battery staple").unwrap();
    let mut g = c.benchmark_group("secrets");
    g.sample_size(20);
    g.bench_function("hash_password", |b| {
        b.iter(|| secrets::hash_password("correct horse battery staple").unwrap())
    });
    g.bench_function("verify_password", |b| {
        b.iter(|| {
            assert!(secrets::verify_password(
                "correct horse battery staple",
                &phc
            ))
        })
    });
    g.bench_function("token_hash", |b| {
        let t = secrets::new_token();
        b.iter(|| secrets::token_hash(&t))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
