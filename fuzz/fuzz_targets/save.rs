//! The save loader on any bytes: an error or a save that writes back to the same text's meaning.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tortuga::session::save::SaveFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(save) = SaveFile::parse("fuzz.sav", text) {
        let again =
            SaveFile::parse("fuzz.sav", &save.to_text()).expect("a written save reads back");
        assert_eq!(save, again);
    }
});
