//! The tools people script: batch analysis (with its shards under GNU parallel), engine-against-
//! engine matches, the Gomocup summary and the CCERL match report.

mod analyze;
mod ccerl_summary;
mod even_openings;
mod gomocup_summary;
mod matches;
mod move_quality;
mod openings_offset;
mod scripts;
mod selfplay;
mod shards;
