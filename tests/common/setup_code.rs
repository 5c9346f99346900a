//! Set-up codes made from any JSON, as `Setup::to_code` makes them: for codes no gyrolab
//! would write (hostile values behind a right checksum).

use std::io::Read;

/// `GL{version}-`, then the JSON's checksum and the JSON deflated, in URL-safe base64.
pub fn code_of(json: &str, version: u32) -> String {
    let mut bytes = twox_hash::XxHash3_64::oneshot(json.as_bytes())
        .to_le_bytes()
        .to_vec();
    flate2::read::DeflateEncoder::new(json.as_bytes(), flate2::Compression::fast())
        .read_to_end(&mut bytes)
        .unwrap();
    format!(
        "GL{version}-{}",
        data_encoding::BASE64URL_NOPAD.encode(&bytes)
    )
}
