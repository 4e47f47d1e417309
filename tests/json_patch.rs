//! The JSON Patch conformance suite (`tests/vectors/json-patch/`, see its README) against
//! `agentwire::json::patch::apply`.
//!
//! Every record of `tests.json` and `spec_tests.json` is its own named test below (`t…` and
//! `s…`, numbered by position, named after the record's comment or its first operations), and
//! one test per file runs them all and reports every failing record by its comment. A record
//! with `error` must fail and leave the document exactly as it was (structurally, key order
//! included); one with `expected` must succeed and give a document JSON-equal to it (objects
//! unordered, numbers by value, and nothing more or less); one with neither must succeed.
//! `disabled` records are skipped (counted, and run once more for information only: the per-file
//! test prints whether each would pass); records with only a comment are ignored.
//!
//! The per-file tests check that the lists below cover every record of the committed files;
//! with `JSON_PATCH_TESTS_DIR=/path/to/json-patch-tests` they run that directory's files
//! instead (e.g. a newer upstream checkout, without committing it).

#![cfg(not(target_arch = "wasm32"))]

use agentwire::json::patch::{apply, values_equal};
use agentwire::json::{parse, OwnedValue, Value};
use std::path::PathBuf;

enum Outcome {
    Passed,
    Disabled,
    CommentOnly,
    Failed(String),
}

fn committed(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors/json-patch")
        .join(file)
}

fn load(path: &PathBuf) -> Vec<OwnedValue> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match parse(&text) {
        Ok(Value::Array(records)) => records.into_iter().map(Value::into_owned).collect(),
        Ok(_) => panic!("{}: not an array of records", path.display()),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

fn label(index: usize, record: &Value<'_>) -> String {
    let comment = record.get("comment").and_then(Value::as_str).unwrap_or("");
    let patch = record.get("patch").map(Value::to_json).unwrap_or_default();
    format!("record {index} ({comment:?}, patch {patch})")
}

fn run(record: &Value<'_>, skip_disabled: bool) -> Outcome {
    if skip_disabled && record.get("disabled").and_then(Value::as_bool) == Some(true) {
        return Outcome::Disabled;
    }
    let (Some(doc), Some(patch)) = (record.get("doc"), record.get("patch")) else {
        return Outcome::CommentOnly;
    };
    let original: OwnedValue = doc.clone().into_owned();
    let mut doc = original.clone();
    let result = apply(&mut doc, patch);
    if let Some(error) = record.get("error") {
        return match result {
            Ok(()) => Outcome::Failed(format!(
                "expected an error ({error}), got Ok with {}",
                doc.to_json()
            )),
            Err(_) if doc != original => Outcome::Failed(format!(
                "failed as expected, but changed the document to {}",
                doc.to_json()
            )),
            Err(_) => Outcome::Passed,
        };
    }
    match (result, record.get("expected")) {
        (Err(e), _) => Outcome::Failed(format!("expected success, got {e} [{}]", e.code())),
        (Ok(()), Some(expected)) if !values_equal(&doc, expected) => Outcome::Failed(format!(
            "got {}, expected {}",
            doc.to_json(),
            expected.to_json()
        )),
        (Ok(()), _) => Outcome::Passed,
    }
}

/// One record of a committed file, as its own test.
fn run_case(file: &str, index: usize) {
    let records = load(&committed(file));
    let record = records
        .get(index)
        .unwrap_or_else(|| panic!("{file} has no record {index}: regenerate the list"));
    match run(record, true) {
        Outcome::Passed => {}
        Outcome::Disabled => println!("{file} {}: skipped (disabled)", label(index, record)),
        Outcome::CommentOnly => println!("{file} {}: comment only", label(index, record)),
        Outcome::Failed(why) => panic!("{file} {}: {why}", label(index, record)),
    }
}

/// Every record of `file`; reports all failures at once.
fn run_file(file: &str, listed: usize) {
    let (path, external) = match std::env::var_os("JSON_PATCH_TESTS_DIR") {
        Some(dir) => (PathBuf::from(dir).join(file), true),
        None => (committed(file), false),
    };
    let records = load(&path);
    if !external {
        assert_eq!(
            records.len(),
            listed,
            "{file} has {} records but {listed} are listed as tests: regenerate the list",
            records.len()
        );
    }
    let (mut passed, mut disabled, mut comments, mut failed) = (0, 0, 0, Vec::new());
    for (index, record) in records.iter().enumerate() {
        match run(record, true) {
            Outcome::Passed => passed += 1,
            Outcome::Disabled => {
                disabled += 1;
                // For information only: what the record would give.
                let would = match run(record, false) {
                    Outcome::Failed(why) => format!("would fail: {why}"),
                    _ => "would pass".to_string(),
                };
                println!("  disabled {}: {would}", label(index, record));
            }
            Outcome::CommentOnly => comments += 1,
            Outcome::Failed(why) => failed.push(format!("  {}: {why}", label(index, record))),
        }
    }
    println!(
        "{}: {passed} passed, {} failed, {disabled} disabled (skipped), {comments} comment-only",
        path.display(),
        failed.len()
    );
    assert!(
        failed.is_empty(),
        "{}: {} failing records:\n{}",
        path.display(),
        failed.len(),
        failed.join("\n")
    );
}

/// `cases!("file.json": name = index, ...)`: one test per record, and the file's total.
macro_rules! cases {
    ($file:literal: $($name:ident = $index:literal,)*) => {
        $(
            #[test]
            fn $name() {
                super::run_case($file, $index);
            }
        )*
        #[test]
        fn all_records() {
            super::run_file($file, [$($index),*].len());
        }
    };
}

mod tests_json {
    cases!("tests.json":
        t000_empty_list_empty_docs = 0,
        t001_empty_patch_list = 1,
        t002_rearrangements_ok = 2,
        t003_rearrangements_ok_how_about_one_level_down_array = 3,
        t004_rearrangements_ok_how_about_one_level_down = 4,
        t005_add_replaces_any_existing_field = 5,
        t006_toplevel_array = 6,
        t007_toplevel_array_no_change = 7,
        t008_toplevel_object_numeric_string = 8,
        t009_toplevel_object_integer = 9,
        t010_toplevel_scalar_values_ok = 10,
        t011_add_target = 11,
        t012_add_foo_deep_target_trailing_slash = 12,
        t013_add_composite_value_at_top_level = 13,
        t014_add_into_composite_value = 14,
        t015_add_bar_8_error = 15,
        t016_add_bar_1_error = 16,
        t017_add_bar = 17,
        t018_add_bar = 18,
        t019_add_bar = 19,
        t020_0_can_be_an_array_index_or_object_element_name = 20,
        t021_add_1 = 21,
        t022_add_1 = 22,
        t023_add_0 = 23,
        t024_push_item_to_array_via_last_index_1 = 24,
        t025_add_item_to_array_at_index_length_should_fail = 25,
        t026_test_against_implementation_specific_numeric_par = 26,
        t027_test_with_bad_number_should_fail = 27,
        t028_add_bar_error = 28,
        t029_value_in_array_add_not_flattened = 29,
        t030_remove_bar = 30,
        t031_remove_baz_0_qux = 31,
        t032_replace_foo = 32,
        t033_replace_baz_0_qux = 33,
        t034_replace_0 = 34,
        t035_replace_0 = 35,
        t036_replace_0 = 36,
        t037_replace_0 = 37,
        t038_replace_0 = 38,
        t039_value_in_array_replace_not_flattened = 39,
        t040_replace_whole_document = 40,
        t041_spurious_patch_properties = 41,
        t042_null_value_should_be_valid_obj_property = 42,
        t043_null_value_should_be_valid_obj_property_to_be_re = 43,
        t044_null_value_should_be_valid_obj_property_to_be_mo = 44,
        t045_null_value_should_be_valid_obj_property_to_be_co = 45,
        t046_null_value_should_be_valid_obj_property_to_be_re = 46,
        t047_null_value_should_still_be_valid_obj_property_re = 47,
        t048_test_should_pass_despite_rearrangement = 48,
        t049_test_should_pass_despite_nested_rearrangement = 49,
        t050_test_should_pass_no_error = 50,
        t051_test_foo_error = 51,
        t052_whole_document = 52,
        t053_empty_string_element = 53,
        t054_test_foo_test_foo_0 = 54,
        t055_move_to_same_location_has_no_effect = 55,
        t056_move_bar = 56,
        t057_move_baz_1 = 57,
        t058_copy_boo = 58,
        t059_replacing_the_root_of_the_document_is_possible_w = 59,
        t060_adding_to_adds_to_the_end_of_the_array = 60,
        t061_adding_to_adds_to_the_end_of_the_array_even_n_le = 61,
        t062_test_remove_with_bad_number_should_fail = 62,
        t063_test_remove_on_array = 63,
        t064_test_repeated_removes = 64,
        t065_test_remove_with_bad_index_should_fail = 65,
        t066_test_replace_with_bad_number_should_fail = 66,
        t067_test_copy_with_bad_number_should_fail = 67,
        t068_test_move_with_bad_number_should_fail = 68,
        t069_test_add_with_bad_number_should_fail = 69,
        t070_missing_value_parameter_to_add = 70,
        t071_missing_value_parameter_to_replace = 71,
        t072_missing_value_parameter_to_test = 72,
        t073_missing_value_parameter_to_test_where_undef_is_f = 73,
        t074_missing_from_parameter_to_copy = 74,
        t075_missing_from_parameter_to_move = 75,
        t076_duplicate_ops = 76,
        t077_unrecognized_op_should_fail = 77,
    );
}
mod spec_json {
    cases!("spec_tests.json":
        s000_4_1_add_with_missing_object = 0,
        s001_a_1_adding_an_object_member = 1,
        s002_a_2_adding_an_array_element = 2,
        s003_a_3_removing_an_object_member = 3,
        s004_a_4_removing_an_array_element = 4,
        s005_a_5_replacing_a_value = 5,
        s006_a_6_moving_a_value = 6,
        s007_a_7_moving_an_array_element = 7,
        s008_a_8_testing_a_value_success = 8,
        s009_a_9_testing_a_value_error = 9,
        s010_a_10_adding_a_nested_member_object = 10,
        s011_a_11_ignoring_unrecognized_elements = 11,
        s012_a_12_adding_to_a_non_existent_target = 12,
        s013_a_13_invalid_json_patch_document = 13,
        s014_a_14_escape_ordering = 14,
        s015_a_15_comparing_strings_and_numbers = 15,
        s016_a_16_adding_an_array_value = 16,
    );
}
