//! The engine on small competitions built here; the whole of it against FIDE's checker is in
//! `arbiter-formats`' tests.
