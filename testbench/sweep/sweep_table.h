// Reading a results database back (`ndrsim results`, `ndrsim plot`): the points of each sweep
// with their parameters and metrics, and helpers to order axis values and average repeats.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/batch_means.h"
#include "sweep_db.h"

namespace ndr::tb {

struct sweep_row {
    std::string key;
    long long idx = 0;
    nlohmann::json params;  ///< axis -> value (strings; "repeat" an integer)
    std::string status;
    std::string error;
    std::optional<double> wall_s;
    long long seed = 0;
    nlohmann::json metrics;  ///< metric columns and the metrics JSON, merged
};

struct sweep_rows {
    std::string sweep_id;
    std::string kind;
    std::vector<std::string> axes;  ///< axis keys in sweep-file order ("repeat" last if any)
    std::vector<sweep_row> rows;    ///< in point order
};

/// Every sweep of the database (only `sweep_id` if not empty); `where` = extra SQL condition on
/// table points with `binds`. Throws if `sweep_id` is not in the database.
std::vector<sweep_rows> load_sweeps(sweep_db& db, const std::string& sweep_id,
                                    const std::string& where = "1",
                                    const std::vector<std::string>& binds = {});

/// A metric of a row as a number (nullopt if absent or not numeric).
std::optional<double> metric_value(const sweep_row& r, const std::string& name);

/// The parameter as text ("" if absent).
std::string param_text(const sweep_row& r, const std::string& axis);

/// The point's cell: its parameters without "repeat" (the points that differ only in seed).
std::string cell_of(const sweep_row& r);

/// Mean, 95 % Student-t half-width and count of a metric over the done points of the cell of
/// `r` (its repeats); half_width is 0 with fewer than 2 values.
common::mean_ci repeat_summary(const sweep_rows& s, const sweep_row& r, const std::string& metric);

/// "mean ± half-width (n=N)", or "mean" alone with one value, "-" with none.
std::string summary_text(const common::mean_ci& m);

/// Distinct values of an axis, in point order.
std::vector<std::string> axis_values(const sweep_rows& s, const std::string& axis);

/// Numeric positions of axis values for plotting: plain numbers, sizes (B), times (ns).
/// `unit` is set to "", "B" or "ns"; nullopt if some value is none of these.
std::optional<std::vector<double>> axis_numbers(const std::vector<std::string>& values,
                                                std::string& unit);

}  // namespace ndr::tb
