#include "common/batch_means.h"

#include <cmath>
#include <stdexcept>

namespace ndr::common {

namespace {

/// Continued fraction of the regularized incomplete beta function (modified Lentz).
double beta_cf(double a, double b, double x) {
    constexpr double tiny = 1e-300;
    constexpr double eps = 1e-15;
    double c = 1.0;
    double d = 1.0 - (a + b) * x / (a + 1.0);
    if (std::fabs(d) < tiny) d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const double dm = m;
        double num = dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm));
        d = 1.0 + num * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1.0 + num / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        h *= d * c;
        num = -(a + dm) * (a + b + dm) * x / ((a + 2 * dm) * (a + 2 * dm + 1));
        d = 1.0 + num * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1.0 + num / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1.0) < eps) break;
    }
    return h;
}

/// Regularized incomplete beta I_x(a, b).
double inc_beta(double a, double b, double x) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    const double lbt =
        std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(lbt) * beta_cf(a, b, x) / a;
    return 1.0 - std::exp(lbt) * beta_cf(b, a, 1.0 - x) / b;
}

}  // namespace

double student_t_cdf(double t, unsigned dof) {
    const double v = dof;
    const double tail = 0.5 * inc_beta(v / 2.0, 0.5, v / (v + t * t));
    return t >= 0.0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, unsigned dof) {
    if (!(p > 0.0 && p < 1.0) || dof == 0) {
        throw std::invalid_argument("student_t_quantile: needs 0 < p < 1 and dof >= 1");
    }
    if (p < 0.5) return -student_t_quantile(1.0 - p, dof);
    double lo = 0.0;
    double hi = 1.0;
    while (student_t_cdf(hi, dof) < p) hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (student_t_cdf(mid, dof) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

mean_ci mean_ci95(const std::vector<double>& x) {
    mean_ci r;
    r.n = x.size();
    if (x.empty()) return r;
    double sum = 0.0;
    for (double v : x) sum += v;
    r.mean = sum / static_cast<double>(r.n);
    if (r.n < 2) return r;
    double ss = 0.0;
    for (double v : x) ss += (v - r.mean) * (v - r.mean);
    const double s = std::sqrt(ss / static_cast<double>(r.n - 1));
    r.half_width = student_t_quantile(0.975, static_cast<unsigned>(r.n - 1)) * s /
                   std::sqrt(static_cast<double>(r.n));
    return r;
}

std::vector<double> batch_means(const std::vector<double>& x, std::size_t size) {
    std::vector<double> m;
    if (size == 0) return m;
    for (std::size_t i = 0; i + size <= x.size(); i += size) {
        double s = 0.0;
        for (std::size_t j = i; j < i + size; ++j) s += x[j];
        m.push_back(s / static_cast<double>(size));
    }
    return m;
}

std::size_t mser_truncation(const std::vector<double>& z) {
    const std::size_t n = z.size();
    if (n < 2) return 0;
    // Suffix sums give each candidate's statistic in O(1).
    std::vector<double> s1(n + 1, 0.0);
    std::vector<double> s2(n + 1, 0.0);
    for (std::size_t i = n; i-- > 0;) {
        s1[i] = s1[i + 1] + z[i];
        s2[i] = s2[i + 1] + z[i] * z[i];
    }
    std::size_t best = 0;
    double best_v = 0.0;
    for (std::size_t d = 0; d <= n / 2; ++d) {
        const double k = static_cast<double>(n - d);
        const double ss = std::max(0.0, s2[d] - s1[d] * s1[d] / k);
        const double v = ss / (k * k);
        if (d == 0 || v < best_v) {
            best_v = v;
            best = d;
        }
    }
    return best;
}

std::size_t mser5_truncation(const std::vector<double>& y) {
    return 5 * mser_truncation(batch_means(y, 5));
}

}  // namespace ndr::common
