//! `arbiter_fuzz_targets::rating_list` under libFuzzer: what must hold is said there.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter_fuzz_targets::rating_list(data));
