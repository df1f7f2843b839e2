// SPDX-License-Identifier: MIT
// The C/C++ demo suite: a test of each shape a sweep must tell apart
// (EXPECTED.md). Chance comes from std::random_device, so each run differs.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <thread>
#include <unistd.h>
#include <vector>

TEST(Demo, AlwaysPasses) { EXPECT_EQ(4, 2 + 2); }

TEST(Demo, CanaryRed) { EXPECT_EQ(3, 1 + 1) << "the red canary fails every run"; }

// True in about one call of n.
static bool
one_in(unsigned n)
{
	return std::random_device()() % n == 0;
}

TEST(Demo, Flaky) { EXPECT_FALSE(one_in(3)) << "lost the race this time"; }

// Sizes its pool as hardware_concurrency() - 1, keeping a core for the
// producer: with one core the pool is empty and the job never runs.
TEST(Demo, NeedsTwoCPUs)
{
	unsigned cores = std::thread::hardware_concurrency();
	unsigned workers = cores > 1 ? cores - 1 : 0;
	std::mutex mu;
	std::condition_variable cv;
	bool posted = false, done = false;
	std::vector<std::thread> pool;

	for (unsigned i = 0; i < workers; i++)
		pool.emplace_back([&] {
			std::unique_lock<std::mutex> lock(mu);
			cv.wait(lock, [&] { return posted; });
			done = true;
			cv.notify_all();
		});
	{
		std::unique_lock<std::mutex> lock(mu);
		posted = true;
		cv.notify_all();
		cv.wait_for(lock, std::chrono::milliseconds(300), [&] { return done; });
	}
	for (auto &t : pool)
		t.join();
	ASSERT_TRUE(done) << "no worker ran the job: a pool of " << workers
	                  << " from hardware_concurrency() = " << cores;
}

// Deadlocks in about one run of three.
TEST(Demo, SometimesHangs)
{
	if (one_in(3))
		for (;;)
			pause();
}

static bool verbose;

// Passes in source order; fails when shuffled after Order.SetsVerbose.
TEST(Order, QuietByDefault) { EXPECT_FALSE(verbose) << "Order.SetsVerbose ran first"; }

TEST(Order, SetsVerbose) { verbose = true; }
