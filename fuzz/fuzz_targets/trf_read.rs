//! Any bytes through the TRF reader and the import: nothing may panic, a file that reads must
//! write back byte for byte, and a competition that imports must export to a file that reads.
#![no_main]

use arbiter_formats::trf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = trf::read("fuzz.trf", data) else {
        return;
    };
    assert_eq!(trf::write(&doc), data, "write(read(x)) must give x back");
    let Ok(import) = trf::to_competition(&doc) else {
        return;
    };
    let out = trf::from_competition(&import.competition, &import.rules, &import.tiebreaks);
    let written = trf::write(&out);
    match trf::read("exported.trf", &written) {
        Ok(back) => {
            let _ = trf::to_competition(&back);
        }
        Err(e) => panic!("an exported file must read back: {e}"),
    }
});
