//! Campaigns end to end (written next).
