// The kernel scenarios' laws by family (unittest/device/contact_scenarios.cuh), and one contact's
// state under them, for the host kernel tests that run every family: the linear laws, the Jaeger
// law with a capacity, and one catalogue law per tangential model.
#pragma once

#include "device/contact_scenarios.cuh"

#include <string>
#include <vector>

namespace ge_device {

struct Family {
  std::string name;
  ge::ContactLaw law;
};

inline std::vector<Family> families()
{
  std::vector<Family> f = {{"classic", linear_contact_law(false)},
                           {"refined", linear_contact_law(true)},
                           {"jaeger capacity 8", jaeger_contact_law()}};
  for (int kind = 0; kind < CAT_KINDS; kind++)
    f.push_back({"catalogue " + std::to_string(kind), catalogue_contact_law(kind)});
  return f;
}

// One contact's state: the fixed part and the Jaeger vertices (a copy keeps its own vertices:
// the view is re-pointed)
struct Contact {
  double state[ge::CONTACT_STATE_MAX] = {};
  std::vector<ge::JaegerVertex> vertex = std::vector<ge::JaegerVertex>(kJaegerRoom);
  ge::JaegerHistory history{vertex.data(), 0, kJaegerRoom};
  Contact() = default;
  Contact(const Contact &o) : vertex(o.vertex), history(o.history)
  {
    for (int k = 0; k < ge::CONTACT_STATE_MAX; k++) state[k] = o.state[k];
    history.vertex = vertex.data();
  }
  Contact &operator=(const Contact &o)
  {
    for (int k = 0; k < ge::CONTACT_STATE_MAX; k++) state[k] = o.state[k];
    vertex = o.vertex;
    history = o.history;
    history.vertex = vertex.data();
    return *this;
  }
  ge::ContactResult step(const ge::ContactLaw &law, const ge::ContactBodies &b)
  {
    ge::ContactResult r;
    ge::contact_step(law, b, state, &history, r);
    return r;
  }
};

}    // namespace ge_device
