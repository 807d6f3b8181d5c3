// payload_pool / ib_of (tlm/payload_pool.h, tlm/ib_extension.h): pooled payloads carry their
// IB and FC extensions embedded; ib_of/fc_of must return exactly the extensions the standard
// TLM-2.0 get_extension API finds (what any other TLM-2.0 IP sees), a payload from elsewhere
// must still work through get_extension, and one without an ib_extension must be refused.
#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>

#include "ib_extension.h"
#include "payload_pool.h"

// libsystemc needs an sc_main (never called: Catch2 provides main).
extern "C" int sc_main(int, char*[]) {
    return 0;
}

TEST_CASE("payload_pool: ib_of/fc_of are the payload's TLM extensions", "[tlm]") {
    ndr::tlmm::payload_pool pool;
    tlm::tlm_generic_payload& gp = pool.allocate();
    gp.acquire();
    CHECK(&ndr::tlmm::ib_of(gp) == gp.get_extension<ndr::tlmm::ib_extension>());
    CHECK(&ndr::tlmm::fc_of(gp) == gp.get_extension<ndr::tlmm::fc_extension>());
    ndr::tlmm::ib_of(gp).id = 42;
    const tlm::tlm_generic_payload& cgp = gp;
    CHECK(ndr::tlmm::ib_of(cgp).id == 42);
    CHECK(gp.get_extension<ndr::tlmm::ib_extension>()->id == 42);
    CHECK(pool.live() == 1);
    gp.release();  // back to the pool, reused by the next allocate
    CHECK(pool.live() == 0);
    CHECK(&pool.allocate() == &gp);
}

TEST_CASE("ib_of: payloads not from payload_pool go through get_extension", "[tlm]") {
    tlm::tlm_generic_payload gp;
    CHECK_THROWS_AS(ndr::tlmm::ib_of(gp), std::logic_error);
    CHECK_THROWS_AS(ndr::tlmm::fc_of(gp), std::logic_error);
    ndr::tlmm::ib_extension ext;
    ext.id = 7;
    gp.set_extension(&ext);
    CHECK(&ndr::tlmm::ib_of(gp) == &ext);
    CHECK(ndr::tlmm::ib_of(gp).id == 7);
    gp.clear_extension(&ext);  // not owned by gp
}
