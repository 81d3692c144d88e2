"""Phones as aiohttp test clients (each with its own cookie jar) against a
real server on 127.0.0.1."""

from __future__ import annotations

from contextlib import asynccontextmanager

from aiohttp.test_utils import TestClient, TestServer

from companion.web.server import TableServer


@asynccontextmanager
async def served(table):
    """The phone server for ``table``, and a way to open phones on it."""
    server = TableServer(table)
    test_server = TestServer(server.app(), host="127.0.0.1")
    await test_server.start_server()
    clients: list[TestClient] = []

    async def phone() -> TestClient:
        client = TestClient(test_server)
        await client.start_server()
        clients.append(client)
        return client

    try:
        yield server, phone
    finally:
        for client in clients:
            await client.close()
        await test_server.close()


async def join(phone, token: str):
    """Open a join link without following the redirect."""
    return await phone.get(f"/join/{token}", allow_redirects=False)


async def state(phone) -> dict:
    response = await phone.get("/api/seat")
    assert response.status == 200, await response.text()
    return await response.json()
