// common/batch_means against independent expectations: Student t quantiles from the published
// table (NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2), the coverage and
// mean half-width of the 95 % interval of i.i.d. normal samples of known variance (analytic:
// 0.95 and t * c4(n) * sigma / sqrt(n)), batch means of an AR(1) series with a known mean, and
// MSER-5 on hand-built series whose transient is known.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "common/batch_means.h"

using namespace ndr::common;

namespace {

/// Standard normal deviates by Box-Muller on a fixed-seed mt19937_64 (platform-independent).
class normal_source {
public:
    explicit normal_source(uint64_t seed) : rng_(seed) {}
    double next() {
        const double u1 = (static_cast<double>(rng_() >> 11) + 0.5) / 9007199254740992.0;
        const double u2 = (static_cast<double>(rng_() >> 11) + 0.5) / 9007199254740992.0;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    std::mt19937_64 rng_;
};

}  // namespace

TEST_CASE("student_t_quantile matches the published table", "[unit]") {
    // t_{0.975, dof}
    CHECK(student_t_quantile(0.975, 1) == Approx(12.706).margin(5e-4));
    CHECK(student_t_quantile(0.975, 2) == Approx(4.303).margin(5e-4));
    CHECK(student_t_quantile(0.975, 5) == Approx(2.571).margin(5e-4));
    CHECK(student_t_quantile(0.975, 10) == Approx(2.228).margin(5e-4));
    CHECK(student_t_quantile(0.975, 19) == Approx(2.093).margin(5e-4));
    CHECK(student_t_quantile(0.975, 30) == Approx(2.042).margin(5e-4));
    CHECK(student_t_quantile(0.975, 100) == Approx(1.984).margin(5e-4));
    // Other levels, and symmetry.
    CHECK(student_t_quantile(0.995, 4) == Approx(4.604).margin(5e-4));
    CHECK(student_t_quantile(0.95, 9) == Approx(1.833).margin(5e-4));
    CHECK(student_t_quantile(0.025, 10) == Approx(-2.228).margin(5e-4));
    // dof = 1 is the Cauchy distribution: quantile tan(pi (p - 1/2)).
    CHECK(student_t_quantile(0.9, 1) == Approx(std::tan(3.141592653589793 * 0.4)).epsilon(1e-9));
    CHECK_THROWS(student_t_quantile(1.0, 3));
    CHECK_THROWS(student_t_quantile(0.5, 0));
}

TEST_CASE("mean_ci95 of i.i.d. normal samples: coverage 0.95, half-width t c4 sigma/sqrt(n)",
          "[unit]") {
    constexpr double mu = 10.0;
    constexpr double sigma = 3.0;
    constexpr std::size_t n = 20;
    constexpr int reps = 4000;
    normal_source g(2024);
    int covered = 0;
    double hw_sum = 0.0;
    for (int r = 0; r < reps; ++r) {
        std::vector<double> x;
        for (std::size_t i = 0; i < n; ++i) x.push_back(mu + sigma * g.next());
        const mean_ci ci = mean_ci95(x);
        REQUIRE(ci.n == n);
        if (std::fabs(ci.mean - mu) <= ci.half_width) ++covered;
        hw_sum += ci.half_width;
    }
    const double coverage = static_cast<double>(covered) / reps;
    // Binomial standard error sqrt(0.95 * 0.05 / 4000) = 0.0034: allow 4 of them.
    CHECK(coverage == Approx(0.95).margin(0.014));
    // E[s] = c4(n) sigma, c4(n) = sqrt(2 / (n - 1)) Gamma(n / 2) / Gamma((n - 1) / 2).
    const double c4 =
        std::sqrt(2.0 / (n - 1)) * std::exp(std::lgamma(n / 2.0) - std::lgamma((n - 1) / 2.0));
    const double expect_hw = 2.093024 * c4 * sigma / std::sqrt(static_cast<double>(n));
    // Standard error of the mean half-width: ~ hw * 0.16 / sqrt(4000) = 0.0025 hw.
    CHECK(hw_sum / reps == Approx(expect_hw).epsilon(0.01));
}

TEST_CASE("mean_ci95: a hand-computed interval, and n < 2", "[unit]") {
    // x = 1..5: mean 3, s = sqrt(2.5), half-width t_{0.975,4} s / sqrt(5) = 2.776445 * 0.707107.
    const mean_ci ci = mean_ci95({1, 2, 3, 4, 5});
    CHECK(ci.mean == Approx(3.0));
    CHECK(ci.half_width == Approx(2.776445 * std::sqrt(2.5 / 5.0)).epsilon(1e-5));
    const mean_ci one = mean_ci95({7.0});
    CHECK(one.mean == 7.0);
    CHECK(one.half_width == 0.0);
    CHECK(mean_ci95({}).n == 0);
}

TEST_CASE("batch means restore the coverage of a correlated (AR(1)) series", "[unit]") {
    // x_t = phi x_{t-1} + e_t, mean 0. Naive i.i.d. intervals under-cover badly (the variance of
    // the mean is (1 + phi) / (1 - phi) = 19 times the i.i.d. one); 20 batches of 2000 cover ~95 %.
    constexpr double phi = 0.9;
    constexpr int reps = 400;
    normal_source g(7);
    int naive = 0;
    int batched = 0;
    for (int r = 0; r < reps; ++r) {
        std::vector<double> x;
        double v = g.next() / std::sqrt(1 - phi * phi);  // stationary start
        for (int i = 0; i < 40000; ++i) {
            v = phi * v + g.next();
            x.push_back(v);
        }
        const mean_ci a = mean_ci95(x);
        if (std::fabs(a.mean) <= a.half_width) ++naive;
        const mean_ci b = mean_ci95(batch_means(x, 2000));
        REQUIRE(b.n == 20);
        if (std::fabs(b.mean) <= b.half_width) ++batched;
    }
    // Binomial standard error at 400 reps: 0.011.
    CHECK(static_cast<double>(batched) / reps == Approx(0.95).margin(0.04));
    CHECK(static_cast<double>(naive) / reps < 0.5);  // P(|Z| < 1.96 / sqrt(19)) = 0.35
}

TEST_CASE("batch_means drops a trailing partial batch", "[unit]") {
    const std::vector<double> m = batch_means({1, 2, 3, 4, 5, 6, 7}, 3);
    REQUIRE(m.size() == 2);
    CHECK(m[0] == 2.0);
    CHECK(m[1] == 5.0);
}

TEST_CASE("MSER-5 finds a hand-built transient and none in a stationary series", "[unit]") {
    // 20 values at 50 (the transient), then 80 alternating +1, -1: batch-of-5 means are 50 x 4,
    // then +0.2, -0.2, ... The statistic is 0.64 / 16^2 = 0.0025 at d = 4 batches, 0.00265 at
    // d = 5, 0.00286 at d = 6, and larger for d < 4: delete 4 batches = 20 observations.
    std::vector<double> y(20, 50.0);
    for (int i = 0; i < 80; ++i) y.push_back(i % 2 == 0 ? 1.0 : -1.0);
    CHECK(mser5_truncation(y) == 20);
    // Without the transient: d = 0 (0.8 / 20^2 = 0.002 < 0.758 / 19^2 = 0.0021).
    const std::vector<double> flat(y.begin() + 20, y.end());
    CHECK(mser5_truncation(flat) == 0);
    // A decaying transient 40, 20, 10, 5, 2.5 (one per batch mean) then flat: the truncation
    // point is past the last value above the noise.
    std::vector<double> z = {40, 20, 10, 5, 2.5};
    for (int i = 0; i < 25; ++i) z.push_back(i % 2 == 0 ? 0.2 : -0.2);
    const std::size_t d = mser_truncation(z);
    CHECK(d >= 4);
    CHECK(d <= 5);
    // MSER never truncates more than half of the series.
    std::vector<double> ramp;
    for (int i = 0; i < 10; ++i) ramp.push_back(i);
    CHECK(mser_truncation(ramp) <= 5);
}
