// RingCalls.h: the calls that replace a ring whole (private to the
// rewriter library). Replacement.cpp has already chosen the words every
// call shares (communicator, count, datatype, the rank's name); these
// read the ring itself (RingCombine.h, RingReduceScatter.h) and either
// give the call's text or refuse with the reason.
#pragma once

#include <functional>
#include <string>

#include "collectivize/rewrite/Replacement.h"

#include "Arguments.h"

namespace cz::rewrite {

struct CallWords {
  std::string comm, count, type, rank;
};

// The call's text, and in leftIn the buffer it leaves its result in;
// "" with plan.whyNot when the ring is not the collective; "" alone when
// the sites are no ring of that shape at all.
using RingCallBuilder =
    std::function<std::string(const ArgumentContext &, const CallWords &, CallPlan &, std::string &leftIn)>;

// A ring that combines each block as it arrives into an accumulator and
// passes it on: MPI_Allreduce in place on the accumulator.
std::string ringAllreduceCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan, std::string &leftIn);
// A ring over the blocks of one buffer: MPI_Reduce_scatter_block into the
// ring's receive buffer, then a copy to the rank's block, where the ring
// left it.
std::string ringReduceScatterCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan,
                                  std::string &leftIn);

// The bandwidth-optimal ring allreduce, a reduce-scatter ring then an
// allgather ring over the blocks of one buffer: MPI_Allreduce in place over
// all P blocks. "" alone when the sites are no such pair of loops.
std::string ringTwoPhaseAllreduceCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan,
                                      std::string &leftIn);

// A recursive-halving reduce-scatter, or the halving then recursive
// doubling of Rabenseifner's allreduce, as analyzeHalving read it
// (HalvingExchange.h). "" alone when h found no such loops.
struct HalvingExchange;
std::string halvingCall(const HalvingExchange &h, const ArgumentContext &args, const CallWords &w, CallPlan &plan,
                        std::string &leftIn);

// A chain of ranks passing partial results up (PrefixChain.h): MPI_Scan or
// MPI_Exscan. "" alone when the sites are no chain.
std::string prefixChainCall(const ArgumentContext &args, const CallWords &w, CallPlan &plan, std::string &leftIn);

} // namespace cz::rewrite
