// Output analysis of a simulation run (docs/report.md "Confidence intervals"): Student-t
// confidence intervals of a mean, batch means and the MSER-5 warm-up truncation rule.
// SystemC-free; used by `ndrsim traffic` (batch means of one run) and `ndrsim results` /
// `ndrsim plot` (mean over a sweep's repeats).
#pragma once
#include <cstddef>
#include <vector>

namespace ndr::common {

/// Student t quantile: the t with P(T <= t) = p for `dof` degrees of freedom (p in (0, 1),
/// dof >= 1). From the regularized incomplete beta function, to ~1e-10.
double student_t_quantile(double p, unsigned dof);

/// Cumulative distribution function of Student's t with `dof` degrees of freedom.
double student_t_cdf(double t, unsigned dof);

/// Sample mean and the half-width of its two-sided 95 % confidence interval,
/// t_{0.975, n-1} * s / sqrt(n) (s: sample standard deviation). half_width is 0 for n < 2.
struct mean_ci {
    double mean = 0.0;
    double half_width = 0.0;
    std::size_t n = 0;
};
mean_ci mean_ci95(const std::vector<double>& x);

/// Means of consecutive batches of `size` observations (a trailing partial batch is dropped).
std::vector<double> batch_means(const std::vector<double>& x, std::size_t size);

/// MSER (White 1997) on a series z: the truncation point d in [0, floor(n/2)] minimising
/// sum_{j >= d} (z_j - mean(z_d..))^2 / (n - d)^2, the first d values being the transient.
std::size_t mser_truncation(const std::vector<double>& z);

/// MSER-5: MSER on the means of batches of 5 raw observations; returns the number of raw
/// observations to delete (5 x the truncation point over batches).
std::size_t mser5_truncation(const std::vector<double>& y);

}  // namespace ndr::common
