//go:build amd64 && !purego

#include "textflag.h"

// func expNegAbsAVX2(dst []float64, src []float64)
//
// dst[i] = asm.ExpNonPos(−|src[i]|), four at a time (len(src) a multiple
// of 4): the instructions of asm's swapAlphaAVX2 after its min(lr, 0)
// (asm/_gen/swap.go), with −|x| = x OR the sign bit in its place, so that
// the bits are ExpNonPos's. Constants: logitconsts<> below, one per 32
// bytes, each 4 times.
TEXT ·expNegAbsAVX2(SB), NOSPLIT, $0-48
	LEAQ logitconsts<>+0(SB), AX
	MOVQ dst_base+0(FP), CX
	MOVQ src_base+24(FP), BX
	MOVQ src_len+32(FP), R9
	SHRQ $0x02, R9
	CMPQ R9, $0x00
	JE   done

loop:
	VMOVUPD     (BX), Y1
	VORPD       576(AX), Y1, Y1
	VMOVUPD     (AX), Y2
	VFMADD231PD 32(AX), Y1, Y2
	VSUBPD      (AX), Y2, Y3
	VMOVAPD     Y1, Y4
	VFMADD231PD 64(AX), Y3, Y4
	VFMADD231PD 96(AX), Y3, Y4
	VMULPD      Y4, Y4, Y3
	VMULPD      Y3, Y3, Y5
	VMULPD      Y5, Y5, Y6
	VMOVUPD     128(AX), Y7
	VFMADD231PD 160(AX), Y4, Y7
	VMOVUPD     192(AX), Y8
	VFMADD231PD 224(AX), Y4, Y8
	VFMADD231PD Y8, Y3, Y7
	VMOVUPD     256(AX), Y8
	VFMADD231PD 288(AX), Y4, Y8
	VMOVUPD     320(AX), Y9
	VFMADD231PD 352(AX), Y4, Y9
	VFMADD231PD Y9, Y3, Y8
	VFMADD231PD Y8, Y5, Y7
	VMOVUPD     384(AX), Y5
	VFMADD231PD 416(AX), Y4, Y5
	VMOVUPD     448(AX), Y8
	VFMADD231PD Y8, Y3, Y5
	VFMADD231PD Y5, Y6, Y7
	VFMADD213PD 480(AX), Y4, Y7
	VFMADD213PD 480(AX), Y4, Y7
	VPADDQ      512(AX), Y2, Y2
	VPSLLQ      $0x34, Y2, Y2
	VMULPD      Y2, Y7, Y7
	VCMPPD      $0x1d, 544(AX), Y1, Y1
	VANDPD      Y1, Y7, Y7
	VMOVUPD     Y7, (CX)
	ADDQ        $0x20, CX
	ADDQ        $0x20, BX
	DECQ        R9
	JNZ         loop

done:
	VZEROUPPER
	RET

DATA logitconsts<>+0(SB)/8, $0x4338000000000000
DATA logitconsts<>+8(SB)/8, $0x4338000000000000
DATA logitconsts<>+16(SB)/8, $0x4338000000000000
DATA logitconsts<>+24(SB)/8, $0x4338000000000000
DATA logitconsts<>+32(SB)/8, $0x3ff71547652b82fe
DATA logitconsts<>+40(SB)/8, $0x3ff71547652b82fe
DATA logitconsts<>+48(SB)/8, $0x3ff71547652b82fe
DATA logitconsts<>+56(SB)/8, $0x3ff71547652b82fe
DATA logitconsts<>+64(SB)/8, $0xbfe62e42fee00000
DATA logitconsts<>+72(SB)/8, $0xbfe62e42fee00000
DATA logitconsts<>+80(SB)/8, $0xbfe62e42fee00000
DATA logitconsts<>+88(SB)/8, $0xbfe62e42fee00000
DATA logitconsts<>+96(SB)/8, $0xbdea39ef35793c76
DATA logitconsts<>+104(SB)/8, $0xbdea39ef35793c76
DATA logitconsts<>+112(SB)/8, $0xbdea39ef35793c76
DATA logitconsts<>+120(SB)/8, $0xbdea39ef35793c76
DATA logitconsts<>+128(SB)/8, $0x3fe0000000000000
DATA logitconsts<>+136(SB)/8, $0x3fe0000000000000
DATA logitconsts<>+144(SB)/8, $0x3fe0000000000000
DATA logitconsts<>+152(SB)/8, $0x3fe0000000000000
DATA logitconsts<>+160(SB)/8, $0x3fc5555555555557
DATA logitconsts<>+168(SB)/8, $0x3fc5555555555557
DATA logitconsts<>+176(SB)/8, $0x3fc5555555555557
DATA logitconsts<>+184(SB)/8, $0x3fc5555555555557
DATA logitconsts<>+192(SB)/8, $0x3fa5555555555556
DATA logitconsts<>+200(SB)/8, $0x3fa5555555555556
DATA logitconsts<>+208(SB)/8, $0x3fa5555555555556
DATA logitconsts<>+216(SB)/8, $0x3fa5555555555556
DATA logitconsts<>+224(SB)/8, $0x3f811111111100df
DATA logitconsts<>+232(SB)/8, $0x3f811111111100df
DATA logitconsts<>+240(SB)/8, $0x3f811111111100df
DATA logitconsts<>+248(SB)/8, $0x3f811111111100df
DATA logitconsts<>+256(SB)/8, $0x3f56c16c16c162d6
DATA logitconsts<>+264(SB)/8, $0x3f56c16c16c162d6
DATA logitconsts<>+272(SB)/8, $0x3f56c16c16c162d6
DATA logitconsts<>+280(SB)/8, $0x3f56c16c16c162d6
DATA logitconsts<>+288(SB)/8, $0x3f2a01a01abe62dd
DATA logitconsts<>+296(SB)/8, $0x3f2a01a01abe62dd
DATA logitconsts<>+304(SB)/8, $0x3f2a01a01abe62dd
DATA logitconsts<>+312(SB)/8, $0x3f2a01a01abe62dd
DATA logitconsts<>+320(SB)/8, $0x3efa01a01a6d7808
DATA logitconsts<>+328(SB)/8, $0x3efa01a01a6d7808
DATA logitconsts<>+336(SB)/8, $0x3efa01a01a6d7808
DATA logitconsts<>+344(SB)/8, $0x3efa01a01a6d7808
DATA logitconsts<>+352(SB)/8, $0x3ec71de02375656c
DATA logitconsts<>+360(SB)/8, $0x3ec71de02375656c
DATA logitconsts<>+368(SB)/8, $0x3ec71de02375656c
DATA logitconsts<>+376(SB)/8, $0x3ec71de02375656c
DATA logitconsts<>+384(SB)/8, $0x3e927e4db67b4303
DATA logitconsts<>+392(SB)/8, $0x3e927e4db67b4303
DATA logitconsts<>+400(SB)/8, $0x3e927e4db67b4303
DATA logitconsts<>+408(SB)/8, $0x3e927e4db67b4303
DATA logitconsts<>+416(SB)/8, $0x3e5af4ddd84882fe
DATA logitconsts<>+424(SB)/8, $0x3e5af4ddd84882fe
DATA logitconsts<>+432(SB)/8, $0x3e5af4ddd84882fe
DATA logitconsts<>+440(SB)/8, $0x3e5af4ddd84882fe
DATA logitconsts<>+448(SB)/8, $0x3e21f72fc730b4ff
DATA logitconsts<>+456(SB)/8, $0x3e21f72fc730b4ff
DATA logitconsts<>+464(SB)/8, $0x3e21f72fc730b4ff
DATA logitconsts<>+472(SB)/8, $0x3e21f72fc730b4ff
DATA logitconsts<>+480(SB)/8, $0x3ff0000000000000
DATA logitconsts<>+488(SB)/8, $0x3ff0000000000000
DATA logitconsts<>+496(SB)/8, $0x3ff0000000000000
DATA logitconsts<>+504(SB)/8, $0x3ff0000000000000
DATA logitconsts<>+512(SB)/8, $0x00000000000003ff
DATA logitconsts<>+520(SB)/8, $0x00000000000003ff
DATA logitconsts<>+528(SB)/8, $0x00000000000003ff
DATA logitconsts<>+536(SB)/8, $0x00000000000003ff
DATA logitconsts<>+544(SB)/8, $0xc086232bdd7abcd2
DATA logitconsts<>+552(SB)/8, $0xc086232bdd7abcd2
DATA logitconsts<>+560(SB)/8, $0xc086232bdd7abcd2
DATA logitconsts<>+568(SB)/8, $0xc086232bdd7abcd2
DATA logitconsts<>+576(SB)/8, $0x8000000000000000
DATA logitconsts<>+584(SB)/8, $0x8000000000000000
DATA logitconsts<>+592(SB)/8, $0x8000000000000000
DATA logitconsts<>+600(SB)/8, $0x8000000000000000
GLOBL logitconsts<>(SB), RODATA|NOPTR, $608
